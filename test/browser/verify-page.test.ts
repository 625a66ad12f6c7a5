import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot, watchForScripts, XSS_MARKER } from './browser-rig.ts';
import { pageUrl, startCredentialWorld, type CredentialWorld } from './credential-fixtures.ts';
import { contrastRatios, storedTraces } from './page-checks.ts';
import { FIELD_PAYLOADS, FIELD_TEMPLATE, HOSTILE_TEMPLATE, TEMPLATE_PAYLOADS } from './xss-corpus.ts';

let world: CredentialWorld;
let browser: Browser;
const contexts: BrowserContext[] = [];

let setupFailure: unknown;

beforeAll(async () => {
  // Started together; whatever did start is kept so that afterAll stops it when the other failed.
  const [launched, started] = await Promise.allSettled([launchBrowser(), startCredentialWorld()]);
  if (launched.status === 'fulfilled') browser = launched.value;
  if (started.status === 'fulfilled') world = started.value;
  setupFailure = [launched, started].find((outcome) => outcome.status === 'rejected')?.reason;
});
// Every test fails with the reason (no Chromium, a service that did not start): none is reported as skipped.
beforeEach(() => {
  if (setupFailure) throw setupFailure;
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const open = async (url: string, viewport?: { width: number; height: number }) => {
  const context = await newContext(browser, viewport);
  contexts.push(context);
  const page = await context.newPage();
  const watch = watchForScripts(page);
  await page.goto(url);
  return { page, watch };
};
const resultOf = async (page: Page) => {
  await page.locator('#result').waitFor();
  return page.locator('#result-title').innerText();
};
const failureOf = async (page: Page) => {
  await page.locator('#status.status-bad').waitFor();
  return page.locator('#status').innerText();
};
const summaryOf = (page: Page) =>
  page.locator('#summary').evaluate((list) => {
    const rows: Record<string, string> = {};
    for (const term of list.querySelectorAll('dt')) rows[term.textContent ?? ''] = (term.nextElementSibling as HTMLElement).textContent ?? '';
    return rows;
  });

const CARD = '<style>h1 { color: #0b6b2c }</style><h1 id="card-title">{{credentialSubject.name}}</h1><p id="card-issuer">Issued by {{issuer.name}}</p>';
const withTemplate = (template: string) => ({ renderMethod: [{ type: 'RenderTemplate2024', mediaType: 'text/html', template }] });

describe('the verify page, happy path', () => {
  it('shows verified, type, issuer, Valid from as a UTC date, the rendered credential, a JSON view and a download', async () => {
    const published = await world.publish(world.credential(withTemplate(CARD)));
    const { page, watch } = await open(pageUrl(world, { uri: published.uri, digestMultibase: published.digestMultibase }));
    expect(await resultOf(page)).toBe('Verified');
    // validFrom 2026-03-04T22:30:00-05:00 is 2026-03-05 in UTC.
    expect(await summaryOf(page)).toEqual({ Type: 'DigitalProductPassport', Issuer: `Acme Widgets (${world.issuer})`, 'Valid from': '2026-03-05', Status: 'Not checked: the credential has no status list entry' });
    expect(await page.locator('#status').innerText()).toBe('The credential is verified.');

    const frame = page.locator('#rendered');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const card = page.frameLocator('#rendered');
    expect(await card.locator('#card-title').innerText()).toBe('Widget');
    expect(await card.locator('#card-issuer').innerText()).toBe('Issued by Acme Widgets');
    expect(await card.locator('#card-title').evaluate((h) => getComputedStyle(h).color)).toBe('rgb(11, 107, 44)');
    expect(await frame.evaluate((f) => (f as HTMLIFrameElement).srcdoc)).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'`);
    await screenshot(page, 'verified-rendered');

    await page.getByRole('button', { name: 'JSON', exact: true }).click();
    expect(await page.locator('#json').isVisible()).toBe(true);
    expect(await frame.isVisible()).toBe(false);
    expect(await page.locator('#show-json').getAttribute('aria-pressed')).toBe('true');
    expect(JSON.parse(await page.locator('#json').innerText())).toMatchObject({ credentialSubject: { name: 'Widget' }, issuer: { id: world.issuer } });
    await screenshot(page, 'verified-json');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
    expect(download.suggestedFilename()).toBe('credential.json');
    const saved = JSON.parse(await readFile((await download.path())!, 'utf8'));
    const stored = await (await fetch(published.uri)).json();
    expect(saved).toEqual(stored);
    expect(saved.type).toBe('EnvelopedVerifiableCredential');
    expect(watch.hits).toEqual([]);
  });

  it('a credential whose template is published elsewhere opens on its JSON and says why', async () => {
    const published = await world.publish(world.credential({ renderMethod: { type: 'RenderTemplate2024', url: 'https://example.com/t.html', digestMultibase: 'zQm' } }));
    const { page } = await open(pageUrl(world, { uri: published.uri }));
    expect(await resultOf(page)).toBe('Verified');
    // The page decides the view after the result shows (it looks at the render methods): wait for its note, bounded.
    await page.locator('#render-note').filter({ hasText: /published elsewhere/ }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#json').isVisible()).toBe(true);
    expect(await page.locator('#show-rendered').isVisible()).toBe(false);
  });

  it('a template named by URL that this service published is fetched from /verify/template and rendered', async () => {
    const template = await world.publishTemplate('<h1 id="card-title">{{credentialSubject.name}}</h1><script>alert(1)</script>');
    const renderMethod = { type: 'RenderTemplate2024', mediaType: 'text/html', url: template.storageUrl, digestMultibase: template.digestMultibase };
    const published = await world.publish(world.credential({ renderMethod }));
    const { page, watch } = await open(pageUrl(world, { uri: published.uri }));
    expect(await resultOf(page)).toBe('Verified');
    expect(await page.frameLocator('#rendered').locator('#card-title').innerText()).toBe('Widget');
    expect(await page.locator('#render-note').isVisible()).toBe(false);
    await screenshot(page, 'verified-published-template');
    expect(watch.hits).toEqual([]);
  });

  it('legacy q={"payload":…} links work, direct parameters win over q, and decryptionKey wins over key', async () => {
    const good = await world.publish(world.credential());
    const legacy = await open(pageUrl(world, { q: JSON.stringify({ payload: { uri: good.uri, digestMultibase: good.digestMultibase } }) }));
    expect(await resultOf(legacy.page)).toBe('Verified');

    const tampered = await world.publishTampered(world.credential(), { credentialSubject: { name: 'Forged' } });
    const direct = await open(pageUrl(world, { uri: good.uri, q: JSON.stringify({ payload: { uri: tampered.uri } }) }));
    expect(await resultOf(direct.page)).toBe('Verified');

    const secret = await world.publish(world.credential(), { encrypt: true });
    const keys = await open(pageUrl(world, { q: JSON.stringify({ payload: { uri: secret.uri, key: 'ab'.repeat(32), decryptionKey: secret.decryptionKey } }) }));
    expect(await resultOf(keys.page)).toBe('Verified');
    expect((await storedTraces(keys.page)).address).not.toContain(secret.decryptionKey);
  });
});

describe('the verify page, encrypted credentials', () => {
  it('asks for the key, verifies with it, and never keeps it: not in the address, web storage, history state or cookies', async () => {
    const published = await world.publish(world.credential(withTemplate(CARD)), { encrypt: true });
    const key = published.decryptionKey!;
    const { page, watch } = await open(pageUrl(world, { uri: published.uri, digestMultibase: published.digestMultibase }));
    const input = page.getByLabel('Decryption key');
    await input.waitFor();
    expect(await input.getAttribute('type')).toBe('password');
    expect(await input.evaluate((e) => e === document.activeElement)).toBe(true);
    await screenshot(page, 'key-prompt');

    await input.fill('not-a-key');
    await page.getByRole('button', { name: 'Decrypt and verify' }).click();
    expect(await page.locator('#key-error').innerText()).toMatch(/64 hexadecimal characters/);
    expect(await input.getAttribute('aria-invalid')).toBe('true');

    await input.fill(key);
    await page.keyboard.press('Enter');
    expect(await resultOf(page)).toBe('Verified');
    expect(await page.frameLocator('#rendered').locator('#card-title').innerText()).toBe('Widget');
    const traces = await storedTraces(page);
    expect(traces.address).toBe(pageUrl(world, { uri: published.uri, digestMultibase: published.digestMultibase }));
    for (const trace of Object.values(traces)) expect(trace).not.toContain(key);
    expect(await page.locator('#key-input').inputValue()).toBe('');
    expect(watch.hits).toEqual([]);
  });

  it('a key given in the address is used, then taken out of the address bar', async () => {
    const published = await world.publish(world.credential(), { encrypt: true });
    const { page } = await open(pageUrl(world, { uri: published.uri, decryptionKey: published.decryptionKey }));
    expect(await resultOf(page)).toBe('Verified');
    const traces = await storedTraces(page);
    expect(traces.address).toBe(pageUrl(world, { uri: published.uri }));
    for (const trace of Object.values(traces)) expect(trace).not.toContain(published.decryptionKey);
  });

  it('tells a wrong key from a corrupt envelope', async () => {
    const published = await world.publish(world.credential(), { encrypt: true });
    const wrong = await open(pageUrl(world, { uri: published.uri }));
    await wrong.page.getByLabel('Decryption key').fill('0f'.repeat(32));
    await wrong.page.getByRole('button', { name: 'Decrypt and verify' }).click();
    await wrong.page.locator('#key-error:not([hidden])').waitFor();
    const wrongMessage = await wrong.page.locator('#key-error').innerText();
    expect(wrongMessage).toMatch(/That key does not open this credential/);
    expect(await wrong.page.locator('#key-error').getAttribute('role')).toBe('alert');
    expect(await wrong.page.getByLabel('Decryption key').isVisible()).toBe(true);
    await screenshot(wrong.page, 'wrong-key');

    const corrupt = await world.store({ cipherText: 'AAAA', iv: 'AAAA', tag: 'AAAAAAAAAAAAAAAAAAAAAA==', type: 'aes-256-gcm' });
    const broken = await open(pageUrl(world, { uri: corrupt.uri, decryptionKey: '0f'.repeat(32) }));
    const brokenMessage = await failureOf(broken.page);
    expect(brokenMessage).toMatch(/damaged: its encrypted envelope is incomplete or malformed/);
    expect(brokenMessage).not.toBe(wrongMessage);
    expect(await broken.page.locator('#key-prompt').isVisible()).toBe(false);
    // The form to try again holds the link; the key is not kept anywhere.
    expect(await broken.page.getByLabel('Credential link (URL)').inputValue()).toBe(corrupt.uri);
    await screenshot(broken.page, 'corrupt-envelope');
  });
});

describe('the verify page, credentials that must not pass', () => {
  it('a credential changed after signing shows NOT verified with the integrity reason', async () => {
    const published = await world.publishTampered(world.credential(withTemplate(CARD)), { credentialSubject: { name: 'Forged' } });
    const { page } = await open(pageUrl(world, { uri: published.uri }));
    expect(await resultOf(page)).toBe('Not verified');
    expect(await page.locator('#result').getAttribute('data-verified')).toBe('false');
    expect(await page.locator('#result-reason').innerText()).toMatch(/altered or its signature is not valid/);
    expect(await page.locator('#status').innerText()).toBe('The credential is NOT verified.');
    for (const { text, ratio } of await contrastRatios(page, '#status, #result h2, #result p, #result dt, #result dd')) expect(ratio, text).toBeGreaterThanOrEqual(4.5);
    await screenshot(page, 'tampered');
  });

  it('content that does not match the digest in the link is refused with its own message', async () => {
    const one = await world.publish(world.credential());
    const other = await world.publish(world.credential());
    const { page } = await open(pageUrl(world, { uri: one.uri, digestMultibase: other.digestMultibase }));
    expect(await failureOf(page)).toMatch(/does not match the expected digest/);
    await screenshot(page, 'digest-mismatch');
  });

  it('a link without a credential address shows the form, which checks what is typed', async () => {
    const published = await world.publish(world.credential());
    const { page } = await open(pageUrl(world, {}));
    const field = page.getByLabel('Credential link (URL)');
    await field.fill('ftp://nope');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    expect(await page.locator('#lookup-error').innerText()).toMatch(/starting with https:\/\//);
    await screenshot(page, 'lookup-form');
    await field.fill(published.uri);
    await page.keyboard.press('Enter');
    expect(await resultOf(page)).toBe('Verified');
  });
});

describe('the verify page, script injection', () => {
  it('the detector is live: a script that does run is counted', async () => {
    const { page, watch } = await open(pageUrl(world, {}));
    await page.evaluate((marker) => {
      console.log(`${marker} control`);
      alert(`${marker} control`);
    }, XSS_MARKER);
    await expect.poll(() => watch.hits.length).toBe(2);
  });

  it('the page’s policy reaches the browser: inline script and handlers written into the page itself do not run', async () => {
    const { page, watch } = await open(pageUrl(world, {}));
    await page.evaluate((marker) => {
      const script = document.createElement('script');
      script.textContent = `console.log('${marker} inline')`;
      document.body.append(script);
      document.body.insertAdjacentHTML('beforeend', `<img src="data:," onerror="console.log('${marker} handler')"><img src="x" onerror="console.log('${marker} handler 2')">`);
    }, XSS_MARKER);
    await page.waitForTimeout(500);
    expect(watch.hits).toEqual([]);
  });

  it(`${FIELD_PAYLOADS.length} payloads in credential fields run nowhere and show as text`, async () => {
    const subject = Object.fromEntries(FIELD_PAYLOADS.map((p, i) => [`p${i}`, p]));
    const credential = world.credential({
      type: ['VerifiableCredential', 'DigitalProductPassport', FIELD_PAYLOADS[1]!],
      issuer: { type: ['CredentialIssuer'], id: world.issuer, name: FIELD_PAYLOADS[0] },
      credentialSubject: { id: 'https://id.example.com/01/09520123456788', name: FIELD_PAYLOADS[4], ...subject },
      ...withTemplate(FIELD_TEMPLATE),
    });
    const published = await world.publish(credential);
    const { page, watch } = await open(pageUrl(world, { uri: published.uri }));
    expect(await resultOf(page)).toBe('Verified');
    expect(await summaryOf(page)).toMatchObject({ Type: `DigitalProductPassport, ${FIELD_PAYLOADS[1]}`, Issuer: `${FIELD_PAYLOADS[0]} (${world.issuer})` });
    expect(await page.locator('#summary img, #summary script, #summary svg').count()).toBe(0);

    const card = page.frameLocator('#rendered');
    expect(await card.locator('#card-title').innerText()).toBe(FIELD_PAYLOADS[4]);
    const fields = await card.locator('p.field').allTextContents();
    expect(fields).toEqual(FIELD_PAYLOADS);
    const dom = await card.locator('body').evaluate((body) => ({
      scripts: body.querySelectorAll('script, iframe, meta, object, embed, svg').length,
      handlers: [...body.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name)),
      link: body.querySelector('#link')?.getAttribute('href') ?? null,
      pic: body.querySelector('#pic')?.getAttribute('src') ?? null,
    }));
    expect(dom).toEqual({ scripts: 0, handlers: [], link: null, pic: null });
    await card.locator('p.field[data-i="5"]').hover();
    await page.getByRole('button', { name: 'JSON', exact: true }).click();
    expect(await page.locator('#json').innerText()).toContain(JSON.stringify(FIELD_PAYLOADS[0]));
    expect(await page.locator('#json *').count()).toBe(0);
    await page.waitForTimeout(300);
    await screenshot(page, 'xss-fields');
    expect(watch.hits).toEqual([]);
  });

  it(`${TEMPLATE_PAYLOADS.length} payloads in the template itself run nowhere: sanitised again on display, inside a script-less sandbox`, async () => {
    const published = await world.publish(world.credential(withTemplate(HOSTILE_TEMPLATE)));
    const { page, watch } = await open(pageUrl(world, { uri: published.uri }));
    expect(await resultOf(page)).toBe('Verified');
    const card = page.frameLocator('#rendered');
    expect(await card.locator('#card-title').innerText()).toBe('Widget');
    const dom = await card.locator('html').evaluate((root) => ({
      dangerous: [...root.querySelectorAll('script, iframe, object, embed, base, form, input, button, noscript, animate')].map((e) => e.tagName),
      refresh: root.querySelectorAll('meta[http-equiv="refresh"], meta[http-equiv="Refresh"]').length,
      handlers: [...root.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name)),
      javascriptUrls: [...root.querySelectorAll('[href], [src], [action], [data]')].filter((e) =>
        ['href', 'src', 'action', 'data'].some((name) => /^\s*javascript:/i.test(e.getAttribute(name) ?? '')),
      ).length,
      styles: [...root.querySelectorAll('[style]')].map((e) => e.getAttribute('style')),
    }));
    expect(dom.dangerous).toEqual([]);
    expect(dom.refresh).toBe(0);
    expect(dom.handlers).toEqual([]);
    expect(dom.javascriptUrls).toBe(0);
    // Clicking what is left of a javascript: link does nothing either.
    await card.locator('#js-link').click().catch(() => {});
    await page.waitForTimeout(1200);
    expect(new URL(page.url()).pathname).toBe('/verify');
    await screenshot(page, 'xss-template');
    expect(watch.hits).toEqual([]);
  });
});

describe('the verify page, accessibility and phones', () => {
  it('works at 375 px: no sideways scrolling, 4.5:1 contrast, labelled controls, keyboard operation with a visible focus', async () => {
    const published = await world.publish(world.credential(withTemplate(CARD)));
    const { page } = await open(pageUrl(world, { uri: published.uri }), { width: 375, height: 812 });
    expect(await resultOf(page)).toBe('Verified');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await page.locator('main').count()).toBe(1);
    expect(await page.locator('header, footer').count()).toBe(2);
    for (const { text, ratio } of await contrastRatios(page, 'h1, h2, p, dt, dd, li, button, label, .site-name')) {
      expect(ratio, text).toBeGreaterThanOrEqual(4.5);
    }
    await page.locator('#show-rendered').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('show-json');
    const outline = await page.locator('#show-json').evaluate((b) => getComputedStyle(b).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    expect(await page.locator('#json').isVisible()).toBe(true);
    await screenshot(page, 'phone-375');

    const encrypted = await world.publish(world.credential(), { encrypt: true });
    const prompt = await open(pageUrl(world, { uri: encrypted.uri }), { width: 375, height: 812 });
    await prompt.page.getByLabel('Decryption key').waitFor();
    expect(await prompt.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const { text, ratio } of await contrastRatios(prompt.page, 'h1, h2, p, label, button')) expect(ratio, text).toBeGreaterThanOrEqual(4.5);
    await screenshot(prompt.page, 'phone-375-key-prompt');
  });
});
