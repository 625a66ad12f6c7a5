import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CORE_DATA_MODELS } from '../../core/data-models/core-data-models.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { seedSystemTemplates } from '../../core/render-templates/system-templates.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { pointStorageInstance, samplePayload } from '../rig/credential-fixtures.ts';
import { axeViolations } from './accessibility.ts';
import { launchBrowser, newContext, screenshot, watchForScripts } from './browser-rig.ts';
import { pageUrl, startCredentialWorld, type CredentialWorld } from './credential-fixtures.ts';

let world: CredentialWorld;
let browser: Browser;
let did: string;
let token: string;
let setupFailure: unknown;
const contexts: BrowserContext[] = [];

/** A host a template might try to load from: counts every request it gets. */
let pixel: { url: string; hits: number; server: Server };

beforeAll(async () => {
  const [launched, started] = await Promise.allSettled([launchBrowser(), startCredentialWorld()]);
  if (launched.status === 'fulfilled') browser = launched.value;
  if (started.status === 'fulfilled') world = started.value;
  setupFailure = [launched, started].find((outcome) => outcome.status === 'rejected')?.reason;
  if (setupFailure) return;
  // Issuance through the API: the system storage instance on this world's storage service, a DID of tenant A.
  await pointStorageInstance(world.app, SYSTEM_SERVICE_IDS.STORAGE, world.storage.url);
  token = await world.app.token('tenantA');
  const made = await world.app.call('POST', '/api/v1/dids', { token, body: { type: 'MANAGED', method: 'DID_WEB', alias: `render-${crypto.randomUUID().slice(0, 8)}` } });
  did = made.body.did;
  const t = world.app;
  await seedSystemTemplates({ db: t.db, box: t.services.secretBox, fetcher: t.services.fetcher, logger: createLogger('error'), allowPrivateUrls: true });
  const server = createServer((_, res) => {
    pixel.hits += 1;
    res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  pixel = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/p.png`, hits: 0, server };
});
beforeEach(() => {
  if (setupFailure) throw setupFailure;
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});
afterAll(async () => {
  await browser?.close();
  await world?.close();
  pixel?.server.close();
});

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const open = async (url: string, viewport = DESKTOP) => {
  const context = await newContext(browser, viewport);
  contexts.push(context);
  const page = await context.newPage();
  const watch = watchForScripts(page);
  await page.goto(url);
  return { page, watch };
};
/** The result's title once the page has finished with it (the status line is set last, after the render). */
const resultOf = async (page: Page) => {
  await page.locator('#result').waitFor();
  await page.locator('#status.status-good, #status.status-bad').waitFor();
  return page.locator('#result-title').innerText();
};
const expectAccessible = async (page: Page, state: string) => expect(await axeViolations(page), state).toEqual([]);

const modelId = (type: string, version: string) => CORE_DATA_MODELS.find((m) => m.credentialType === type && m.version === version)!.id;

/** The render-method entry of the system template of a core model, through the API. */
const systemRenderMethod = async (type: string, version: string) => {
  const model = await world.app.call('GET', `/api/v1/data-models/${modelId(type, version)}`, { token });
  const [template] = model.body.renderTemplates as { id: string }[];
  const res = await world.app.call('GET', `/api/v1/render-templates/${template!.id}/render-method`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const issue = async (type: string, version: string, payload: Record<string, unknown>, publishingOptions?: Record<string, unknown>) => {
  const res = await world.app.call('POST', '/api/v1/credentials', { token, body: { credentialType: type, version, credentialPayload: payload, ...(publishingOptions ? { publishingOptions } : {}) } });
  expect(res.status, res.text).toBe(201);
  return (await world.app.call('GET', `/api/v1/credentials/${res.body.credentialId}`, { token })).body as { id: string; verifyUrl: string; decryptionKey: string };
};

const qrLink = async (credentialId: string) => {
  const res = await fetch(`${world.app.url}/api/v1/credentials/${credentialId}/qr?format=png&size=512`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)!.data;
};

const SAMPLE_FILES: [string, string, string][] = [
  ['DigitalProductPassport', '0.7.0', '0.7.0-prerelease/dpp/DigitalProductPassport_instance.json'],
  ['DigitalConformityCredential', '0.7.0', '0.7.0-prerelease/dcc/ConformityCredential_instance.json'],
  ['DigitalFacilityRecord', '0.7.0', '0.7.0-prerelease/dfr/DigitalFacilityRecord_instance.json'],
  ['DigitalIdentityAnchor', '0.7.0', '0.7.0-prerelease/dia/DigitalIdentityAnchor_mine_instance.json'],
  ['DigitalTraceabilityEvent', '0.7.0', '0.7.0-prerelease/dte/DigitalTraceabilityEvent_instance.json'],
  ['DigitalProductPassport', '0.6.1', '0.6.1/untp-dpp-instance-0.6.1.json'],
  ['DigitalConformityCredential', '0.6.1', '0.6.1/untp-dcc-instance-0.6.1.json'],
];

describe('issued credentials open from their QR code, rendered by their system template', { timeout: 180_000 }, () => {
  it.each(SAMPLE_FILES)('%s %s: QR code → /verify at 390 px and desktop, verified, rendered, no key prompt, key out of the address bar, no axe violation', async (type, version, file) => {
    const payload = { ...samplePayload(file, did), renderMethod: [await systemRenderMethod(type, version)] };
    const issued = await issue(type, version, payload, { humanLinkIncludesKey: true });
    const link = await qrLink(issued.id);
    expect(link).toBe(issued.verifyUrl);
    expect(link).toContain(issued.decryptionKey);
    for (const [name, viewport] of [['390', PHONE], ['desktop', DESKTOP]] as const) {
      const { page, watch } = await open(link, viewport);
      expect(await resultOf(page)).toBe('Verified');
      expect(await page.locator('#key-prompt').isVisible()).toBe(false);
      const card = page.frameLocator('#rendered');
      expect((await card.locator('#untp-card-title').innerText()).trim()).not.toBe('');
      expect(await card.locator('.untp-kind').innerText()).toContain(`UNTP ${version}`);
      expect(page.url()).not.toContain(issued.decryptionKey);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(page, `${type} ${version} ${name}`);
      await screenshot(page, `system-${type}-${version}-${name}`);
      expect(watch.hits).toEqual([]);
    }
  });

  it('without the key in the link (the default) the page asks for it, and renders once it is given', async () => {
    const payload = { ...samplePayload(SAMPLE_FILES[0]![2], did), renderMethod: [await systemRenderMethod('DigitalProductPassport', '0.7.0')] };
    const issued = await issue('DigitalProductPassport', '0.7.0', payload);
    const link = await qrLink(issued.id);
    expect(link).not.toContain(issued.decryptionKey);
    const { page } = await open(link, PHONE);
    await page.getByLabel('Decryption key').waitFor();
    await expectAccessible(page, 'key prompt 390');
    await page.getByLabel('Decryption key').fill(issued.decryptionKey);
    await page.keyboard.press('Enter');
    expect(await resultOf(page)).toBe('Verified');
    expect(await page.frameLocator('#rendered').locator('#untp-card-title').innerText()).toBe('Copper Concentrate (Cu 30%)');
  });
});

const CLAIMS = [
  '<h1 id="t">{{credentialSubject.name}}</h1>',
  '<ul>{{#each credentialSubject.claims}}<li class="claim">{{@index}}. {{metric.name}}: {{measure.value}} {{measure.unit}}{{#if conforms}} ✓{{else}} ✗{{/if}} ({{../issuer.name}})</li>{{/each}}</ul>',
  '{{#with credentialSubject.facility}}<p id="facility">{{name}}</p>{{/with}}{{#unless credentialSubject.recalled}}<p id="ok">In service</p>{{/unless}}',
].join('');
const claimsSubject = {
  id: 'https://id.example.com/01/09520123456788',
  name: 'Widget',
  claims: [{ metric: { name: 'Carbon' }, measure: { value: 12.5, unit: 'KGM' }, conforms: true }, { metric: { name: 'Water' }, measure: { value: 3, unit: 'LTR' }, conforms: false }],
  facility: { name: 'Plant 1' },
};

describe('render methods on /verify', { timeout: 120_000 }, () => {
  it.each([
    ['RenderTemplate2024, type as an array (0.7.0)', { type: ['RenderTemplate2024'], mediaType: 'text/html', template: CLAIMS }],
    ['RenderTemplate2024, type as a string (0.6.x)', { type: 'RenderTemplate2024', template: CLAIMS }],
    ['WebRenderingTemplate2022 (0.6.x)', { type: 'WebRenderingTemplate2022', template: CLAIMS }],
  ])('%s: a Handlebars-style template renders each, if/else, with, unless and ../', async (_, method) => {
    const published = await world.publish(world.credential({ credentialSubject: claimsSubject, renderMethod: [method] }));
    const { page } = await open(pageUrl(world, { uri: published.uri }));
    expect(await resultOf(page)).toBe('Verified');
    const card = page.frameLocator('#rendered');
    // The frame loads its document after the page sets it: wait for it before reading every claim at once.
    await card.locator('li.claim').first().waitFor();
    expect(await card.locator('li.claim').allInnerTexts()).toEqual(['0. Carbon: 12.5 KGM ✓ (Acme Widgets)', '1. Water: 3 LTR ✗ (Acme Widgets)']);
    expect(await card.locator('#facility').innerText()).toBe('Plant 1');
    expect(await card.locator('#ok').innerText()).toBe('In service');
  });

  it('the passport comes first, type, issuer, validity and status beside it (desktop) or below it (390 px); JSON one click away', async () => {
    const published = await world.publish(world.credential({ credentialSubject: claimsSubject, renderMethod: [{ type: ['RenderTemplate2024'], template: CLAIMS }] }));
    for (const viewport of [DESKTOP, PHONE]) {
      const { page } = await open(pageUrl(world, { uri: published.uri }), viewport);
      await resultOf(page);
      const frame = await page.locator('#rendered').boundingBox();
      const facts = await page.locator('#summary').boundingBox();
      if (viewport === DESKTOP) expect(facts!.x).toBeGreaterThan(frame!.x + frame!.width - 1);
      else expect(facts!.y).toBeGreaterThan(frame!.y + frame!.height - 1);
      expect(await page.locator('#json').isVisible()).toBe(false);
      await expectAccessible(page, `rendered ${viewport.width}`);
      await page.getByRole('button', { name: 'JSON', exact: true }).click();
      expect(await page.locator('#json').isVisible()).toBe(true);
      await expectAccessible(page, `json ${viewport.width}`);
    }
  });

  it('several methods: the first whose mediaQuery fits is used, and the others are a choice away', async () => {
    const methods = [
      { type: ['RenderTemplate2024'], name: 'Wall display', mediaQuery: '(min-width: 3000px)', template: '<h1 id="which">wall</h1>' },
      { type: ['RenderTemplate2024'], name: 'Card', template: '<h1 id="which">card</h1>' },
      { type: ['SvgRenderingTemplate2023'], template: '<svg></svg>' },
    ];
    const published = await world.publish(world.credential({ renderMethod: methods }));
    const { page } = await open(pageUrl(world, { uri: published.uri }));
    expect(await resultOf(page)).toBe('Verified');
    expect(await page.frameLocator('#rendered').locator('#which').innerText()).toBe('card');
    expect(await page.locator('#method-select option').allInnerTexts()).toEqual(['Card', 'Wall display']);
    await expectAccessible(page, 'method choice');
    await page.getByLabel('Template').selectOption({ label: 'Wall display' });
    await expect.poll(() => page.frameLocator('#rendered').locator('#which').innerText()).toBe('wall');
    await screenshot(page, 'method-choice');
  });

  it('a template that does not match its digestMultibase is refused with a message, and the data is shown', async () => {
    const template = '<h1 id="which">tampered</h1>';
    const other = await world.publishTemplate('<p>other</p>');
    const published = await world.publish(world.credential({ renderMethod: [{ type: ['RenderTemplate2024'], template, digestMultibase: other.digestMultibase }] }));
    const { page } = await open(pageUrl(world, { uri: published.uri }));
    expect(await resultOf(page)).toBe('Verified');
    expect(await page.locator('#render-note').innerText()).toMatch(/does not match the digest/);
    expect(await page.locator('#rendered').getAttribute('srcdoc')).toBeNull();
    expect(await page.locator('#json').isVisible()).toBe(true);
    // the same template with its own digest renders
    const own = await world.publishTemplate(template);
    const good = await world.publish(world.credential({ renderMethod: [{ type: ['RenderTemplate2024'], url: own.storageUrl, digestMultibase: own.digestMultibase }] }));
    const linked = await open(pageUrl(world, { uri: good.uri }));
    expect(await resultOf(linked.page)).toBe('Verified');
    expect(await linked.page.frameLocator('#rendered').locator('#which').innerText()).toBe('tampered');
  });
});

describe('what a template may load, and what a failed credential shows', { timeout: 120_000 }, () => {
  const tracking = () => `<style>h1 { font-size: 4rem; color: rgb(200, 0, 0) }</style><h1 id="loud">{{credentialSubject.name}}</h1><img id="pixel" src="${pixel.url}?v=${crypto.randomUUID()}" alt=""><img id="inline" alt="dot" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==">`;

  it('the detector is live: the same image loads on a page without our policy', async () => {
    const before = pixel.hits;
    const context = await newContext(browser);
    contexts.push(context);
    const page = await context.newPage();
    await page.setContent(`<img src="${pixel.url}?control" alt="">`);
    await expect.poll(() => pixel.hits).toBeGreaterThan(before);
  });

  it('a verified credential’s template reaches no host: its remote image is blocked, its data: image shows', async () => {
    const before = pixel.hits;
    const published = await world.publish(world.credential({ renderMethod: [{ type: ['RenderTemplate2024'], template: tracking() }] }));
    const { page } = await open(pageUrl(world, { uri: published.uri }));
    expect(await resultOf(page)).toBe('Verified');
    const card = page.frameLocator('#rendered');
    expect(await card.locator('#loud').innerText()).toBe('Widget');
    await expect.poll(() => card.locator('#inline').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(await card.locator('#pixel').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(0);
    expect(pixel.hits).toBe(before);
  });

  it('a credential that fails verification shows only the reason; its data is behind a click, and nothing of its template renders or loads', async () => {
    const before = pixel.hits;
    const published = await world.publishTampered(world.credential({ renderMethod: [{ type: ['RenderTemplate2024'], template: tracking() }] }), { credentialSubject: { name: 'Forged' } });
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, watch } = await open(pageUrl(world, { uri: published.uri }), viewport);
      expect(await resultOf(page)).toBe('Not verified');
      expect(await page.locator('#result-reason').innerText()).toMatch(/altered or its signature is not valid/);
      expect(await page.locator('#rendered').getAttribute('srcdoc')).toBeNull();
      expect(await page.locator('#rendered').isVisible()).toBe(false);
      expect(await page.locator('#summary').isVisible()).toBe(false);
      expect(await page.locator('#method-choice').isVisible()).toBe(false);
      expect(await page.locator('#json').isVisible()).toBe(false);
      await expectAccessible(page, `failed ${viewport.width}`);
      await screenshot(page, `failed-${viewport.width}`);
      await page.getByRole('button', { name: 'JSON', exact: true }).click();
      expect(await page.locator('#json').isVisible()).toBe(true);
      expect(await page.locator('#json').innerText()).toContain('Forged');
      await expectAccessible(page, `failed json ${viewport.width}`);
      expect(watch.hits).toEqual([]);
    }
    expect(pixel.hits).toBe(before);
  });
});

describe('every other page state is accessible at 390 px and desktop', { timeout: 180_000 }, () => {
  it('the lookup form (empty and with an error), the key prompt (with a wrong key) and a failure message', async () => {
    const encrypted = await world.publish(world.credential(), { encrypt: true });
    for (const viewport of [PHONE, DESKTOP]) {
      const lookup = await open(pageUrl(world, {}), viewport);
      await lookup.page.getByLabel('Credential link (URL)').waitFor();
      await expectAccessible(lookup.page, `lookup ${viewport.width}`);
      await lookup.page.getByRole('button', { name: 'Verify', exact: true }).click();
      await lookup.page.locator('#lookup-error:not([hidden])').waitFor();
      await expectAccessible(lookup.page, `lookup error ${viewport.width}`);

      const prompt = await open(pageUrl(world, { uri: encrypted.uri }), viewport);
      await prompt.page.getByLabel('Decryption key').fill('0f'.repeat(32));
      await prompt.page.getByRole('button', { name: 'Decrypt and verify' }).click();
      await prompt.page.locator('#key-error:not([hidden])').waitFor();
      await expectAccessible(prompt.page, `wrong key ${viewport.width}`);

      const missing = await open(pageUrl(world, { uri: `${world.storage.url}/api/v4/documents/missing.json` }), viewport);
      await missing.page.locator('#status.status-bad').waitFor();
      await expectAccessible(missing.page, `failure ${viewport.width}`);
    }
  });
});
