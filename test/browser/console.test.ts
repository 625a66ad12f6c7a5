import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueBatchConsumer } from '../../consumers/jobs/issue-batch.ts';
import { libraryVerifyGeneration } from '../../consumers/jobs/library-verify-generation.ts';
import { applySchemeDocuments } from '../../core/conformity/scheme-document.ts';
import { createJobQueue } from '../../core/jobs/job-queue.ts';
import { organisations } from '../../db/schema/index.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, systemServicesEnv, type IssuanceRig } from '../rig/credential-fixtures.ts';
import { runJob, startTestWorker, testWorkerDeps } from '../rig/jobs.ts';
import { apiAs, signInToConsole, type ConsoleUser } from '../rig/console-user.ts';
import { canBuildPayload } from '../../core/console/payload-from-master-data.ts';
import { CORE_DATA_MODELS } from '../../core/data-models/core-data-models.ts';
import { DPP_070, TEMPLATE_STORAGE_ENV } from '../rig/template-fixtures.ts';
import { launchBrowser, newContext, screenshot, XSS_MARKER } from './browser-rig.ts';
import { FIELD_PAYLOADS } from './xss-corpus.ts';

/** Screenshots of every console page (git-ignored), at desktop width and at 390 px. */
const SHOTS = join(import.meta.dirname, '..', 'artifacts', 'console');
const DESKTOP = { width: 1200, height: 900 };
const DCC_070 = 'ca9ndkrc8lxmtsfzwynui40zy';
const PHONE = { width: 390, height: 844 };

let rig: IssuanceRig;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let alice: ConsoleUser;
let setupFailure: unknown;
const scriptHits: string[] = [];

beforeAll(async () => {
  const [launched, started] = await Promise.allSettled([
    launchBrowser(),
    startIssuanceRig({
      CREDENTIAL_STATUS_MUTATION_ENABLED: 'true',
      VERIFY_RATE_LIMIT_PER_MINUTE: '10000',
    }, {}, TEMPLATE_STORAGE_ENV),
  ]);
  if (launched.status === 'fulfilled') browser = launched.value;
  if (started.status === 'fulfilled') rig = started.value;
  setupFailure = [launched, started].find((o) => o.status === 'rejected')?.reason;
  if (setupFailure) return;
  // Signed in through /auth/login as a person would; the browser gets the same session cookie.
  alice = await signInToConsole(rig.t.url, 'alice');
  context = await newContext(browser, DESKTOP);
  const { hostname } = new URL(rig.t.url);
  await context.addCookies([{ name: 'css_session', value: alice.browser.cookie(new URL(rig.t.url).origin, 'css_session')!, domain: hostname, path: '/', httpOnly: true, sameSite: 'Lax' }]);
  page = await context.newPage();
  page.on('dialog', (dialog) => {
    scriptHits.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.text().startsWith(XSS_MARKER)) scriptHits.push(`console: ${message.text()}`);
  });
}, 90_000);
beforeEach(() => {
  if (setupFailure) throw setupFailure;
});
afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

/**
 * A template preview frame: sandboxed without scripts, so axe-core cannot run inside it (it would wait for
 * ever); the page around it is checked, the frame's content is the tenant's own template.
 */
const PREVIEW_FRAME = ['#preview iframe'];

/**
 * Every page a flow reaches: no axe-core violation (WCAG 2.1 AA rules) at desktop width and at 390 px, no
 * horizontal scrolling of the page at 390 px, and a screenshot at each width.
 */
const checkPage = async (name: string, exclude: string[] = []) => {
  for (const [label, viewport] of [['desktop', DESKTOP], ['390', PHONE]] as const) {
    await page.setViewportSize(viewport);
    const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
    for (const selector of exclude) builder.exclude(selector);
    const { violations } = await builder.analyze();
    expect(violations.map((v) => `${name} @${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} @${label} scrolls sideways`).toBeLessThanOrEqual(0);
    await screenshot(page, `${name}-${label}`, SHOTS);
  }
  await page.setViewportSize(DESKTOP);
};

const go = async (path: string) => {
  await page.goto(`${rig.t.url}${path}`);
};

/** From a filled issue form: its pages checked (`<name>-pickers`, `-preview`, `-result`), the JSON shown, issued. */
const previewAndIssue = async (name: string, payloadContains: string) => {
  await checkPage(`${name}-pickers`);
  await page.getByRole('button', { name: 'Preview what will be signed' }).click();
  await page.getByText('Show the JSON that will be signed').click();
  await expect(page.locator('#payload-json').innerText()).resolves.toContain(payloadContains);
  await checkPage(`${name}-preview`);
  await page.getByRole('button', { name: 'Issue the credential' }).click();
  await expect(page.locator('h1').innerText()).resolves.toBe('Credential issued');
  await checkPage(`${name}-result`);
};

describe('the console in a real browser', () => {
  it('sends a visit without a session through sign-in and back to the page', async () => {
    const fresh = await newContext(browser, DESKTOP);
    try {
      const other = await fresh.newPage();
      await other.goto(`${rig.t.url}/console/products`);
      // The local IDP's login form, then back to the page asked for.
      await other.locator('input[name="login"]').fill('erin');
      await other.locator('input[name="password"]').fill('any');
      await other.locator('button[type="submit"], input[type="submit"]').first().click();
      await other.waitForURL(/\/console\/products$/);
      await expect(other.locator('h1').innerText()).resolves.toBe('Products');
    } finally {
      await fresh.close();
    }
  });

  it('walks the issue flow: master data through the forms, pickers, preview, issue, verify, revoke', { timeout: 240_000 }, async () => {
    await go('/console');
    await expect(page.locator('h1').innerText()).resolves.toBe('Dashboard');
    await checkPage('dashboard');

    await go('/console/registrars/new');
    await page.getByLabel('Name', { exact: true }).fill('GS1');
    await page.getByLabel('Namespace').fill('gs1');
    await page.getByLabel('Web address').fill('https://id.gs1.example');
    await page.getByRole('button', { name: 'Create registrar' }).click();
    await page.waitForURL(/saved=1$/);
    await go('/console/schemes/new');
    await page.getByLabel('Registrar').selectOption({ label: 'GS1' });
    await page.getByLabel('Name', { exact: true }).fill('Global Trade Item Number (GTIN)');
    await page.getByLabel('Primary key').fill('01');
    await page.getByLabel('Validation pattern').fill('^\\d{14}$');
    await page.getByLabel('Link template').fill('/{primaryKey}/{value}');
    await checkPage('scheme-new');
    await page.getByRole('button', { name: 'Create identifier scheme' }).click();
    await page.waitForURL(/saved=1$/);
    await go('/console/dids');
    await page.getByLabel('Type').selectOption('MANAGED');
    await page.getByLabel('Alias').fill('acme-signing');
    await page.getByLabel('Name (optional)').fill('Acme signing key');
    await checkPage('dids');
    await page.getByRole('button', { name: 'Create DID' }).click();
    await page.waitForURL(/\/console\/dids\/[^/]+$/);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('#did-checks').waitFor();
    await checkPage('did-verified');

    await go('/console/identifiers/new');
    await checkPage('identifier-new');
    await page.getByLabel('Identifier scheme').selectOption({ label: 'Global Trade Item Number (GTIN) (01)' });
    await page.getByLabel('Value').fill('09520123456788');
    await page.getByRole('button', { name: 'Create identifier' }).click();
    await page.waitForURL(/\/console\/identifiers\?saved=1$/);
    await checkPage('identifiers');

    await go('/console/organisations/new');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await expect(page.locator('#name-error').innerText()).resolves.not.toBe('');
    await checkPage('organisation-refused');
    await page.getByLabel('Name', { exact: true }).fill('Acme Batteries Pty Ltd');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.waitForURL(/\/console\/organisations\?saved=1$/);
    await checkPage('organisations');

    await go('/console/facilities/new');
    await page.getByLabel('Name', { exact: true }).fill('Acme Plant 7');
    await page.getByLabel('Operating organisation').selectOption({ label: 'Acme Batteries Pty Ltd' });
    await page.getByRole('button', { name: 'Create facility' }).click();
    await page.waitForURL(/saved=1$/);

    await go('/console/products/new');
    await page.getByLabel('Name', { exact: true }).fill('Cell A1');
    await page.getByLabel('Level').selectOption('MODEL');
    await page.getByLabel('Produced by').selectOption({ label: 'Acme Batteries Pty Ltd' });
    await page.getByLabel('Manufacturing facility').selectOption({ label: 'Acme Plant 7' });
    await page.getByLabel('Primary identifier').selectOption({ label: '09520123456788' });
    await checkPage('product-new');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.waitForURL(/saved=1$/);
    await checkPage('products');

    await page.getByRole('link', { name: 'Issue', exact: true }).click();
    await checkPage('issue-model');
    await page.getByLabel('Data model').selectOption('ca3frzta22f7lblxntvw6ukuh');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Organisation', { exact: true }).selectOption({ label: 'Acme Batteries Pty Ltd' });
    await page.getByLabel('Facility', { exact: true }).selectOption({ label: 'Acme Plant 7' });
    await page.getByLabel('Product', { exact: true }).selectOption({ label: 'Cell A1 (model)' });
    await page.getByLabel('Country of production').fill('AU');
    await previewAndIssue('issue', 'https://id.gs1.example/01/09520123456788');
    await expect(page.locator('.qr svg').count()).resolves.toBe(1);

    const key = (await page.locator('#decryption-key').innerText()).trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const credentialPage = await page.getByRole('link', { name: 'Its page' }).getAttribute('href');
    await page.locator('#verify-link').click();
    await page.waitForURL(/\/verify\?/);
    await page.getByLabel('Decryption key').fill(key);
    await page.locator('#key-form button[type="submit"]').click();
    await page.locator('#result').waitFor();
    await expect(page.locator('#result-title').innerText()).resolves.toBe('Verified');
    await screenshot(page, 'verify-issued-desktop', SHOTS);

    await go(credentialPage!);
    await checkPage('credential');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.locator('#credential-status').innerText()).resolves.toBe('Revoked');
    await page.locator('#verify-link').click();
    await page.getByLabel('Decryption key').fill(key);
    await page.locator('#key-form button[type="submit"]').click();
    await page.locator('#result').waitFor();
    await expect(page.locator('#result-title').innerText()).resolves.toBe('Not verified');
    await expect(page.locator('#result-reason').innerText()).resolves.toContain('revoked');
    await screenshot(page, 'verify-revoked-desktop', SHOTS);

    await go('/console/credentials');
    await checkPage('credentials');

    // A 50-row CSV batch from the downloaded template, its progress updating live (htmx under the nonce CSP).
    await go('/console/batches');
    await page.getByRole('link', { name: 'Upload a batch' }).click();
    await checkPage('batch-new');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the column template' }).click();
    const template = await (await download).createReadStream().then(async (stream) => {
      let text = '';
      for await (const chunk of stream) text += chunk;
      return text;
    });
    const [header, first] = template.trim().split(/\r?\n/);
    const row = first!.replace(/,$/, ',AU');
    const csv = [header, ...Array.from({ length: 50 }, (_, i) => row.replace(/^row-1,/, `row-${i + 1},`))].join('\n');
    await page.getByLabel('File').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Submit the batch' }).click();
    await page.waitForURL(/\/console\/batches\/[^/]+$/);
    await expect(page.locator('#batch-state').innerText()).resolves.toBe('QUEUED');
    await checkPage('batch-queued');
    const worker = await startTestWorker(rig.t.databaseUrl, [issueBatchConsumer], undefined, systemServicesEnv(rig));
    try {
      await page.locator('#batch-state', { hasText: 'COMPLETED' }).waitFor({ timeout: 90_000 });
    } finally {
      await worker.stop();
    }
    await expect(page.locator('#batch-bar').getAttribute('value')).resolves.toBe('50');
    await checkPage('batch-completed');
    await go('/console/batches?state=COMPLETED');
    await expect(page.getByRole('cell', { name: 'completed' }).count()).resolves.toBe(1);
    await checkPage('batches');
  });

  it('walks a conformity credential: the profile picker follows the chosen scheme (htmx), preview, issue', { timeout: 90_000 }, async () => {
    const [organisation] = await apiAs(alice, rig.t.url, 'POST', '/organisations', [{ name: 'Certified Cells Ltd' }]);
    await apiAs(alice, rig.t.url, 'POST', '/dids', { type: 'MANAGED', method: 'DID_WEB', alias: `dcc-${crypto.randomUUID().slice(0, 8)}` });
    const [owner] = await rig.t.db.select({ tenantId: organisations.tenantId }).from(organisations).where(eq(organisations.id, organisation.id));
    await applySchemeDocuments(rig.t.db, owner!.tenantId, [
      { id: 'https://scheme.example.com/esg', name: 'Battery ESG Scheme', includedProfile: [{ id: 'https://scheme.example.com/esg/emissions', name: 'Emissions profile' }] },
    ]);
    await go('/console/issue');
    await page.getByLabel('Data model').selectOption(DCC_070);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Organisation', { exact: true }).selectOption({ label: 'Certified Cells Ltd' });
    await expect(page.locator('#conformityProfile option').allInnerTexts()).resolves.toEqual(['Choose the scheme first']);
    await page.getByLabel('Conformity scheme', { exact: true }).selectOption({ label: 'Battery ESG Scheme' });
    // htmx posts the form and swaps in the profiles of the chosen scheme.
    await page.locator('#conformityProfile option[value="https://scheme.example.com/esg/emissions"]').waitFor({ state: 'attached' });
    await page.getByLabel('Conformity profile (optional)', { exact: true }).selectOption({ label: 'Emissions profile' });
    await page.getByLabel('Title of the attestation').fill('Emissions certificate 12');
    await page.getByLabel('Attestation type').selectOption('certification');
    await page.getByLabel('Assessor level').selectOption('3rdParty');
    await page.getByLabel('Assessment level').selectOption('scheme-cab');
    await previewAndIssue('issue-conformity', 'https://scheme.example.com/esg/emissions');
  });

  // Thirteen forms, each checked with axe at two widths: minutes on a loaded 2-core machine (a bound, not a timing).
  it("every other data model's issue form (each type, each version) meets WCAG 2.1 AA at both widths", { timeout: 360_000 }, async () => {
    // The product passport and conformity credential of 0.7.0 are walked above; every other form the console builds is checked here.
    const walked = new Set([DPP_070, DCC_070]);
    for (const model of CORE_DATA_MODELS.filter((m) => canBuildPayload(m.credentialType, m.version) && !walked.has(m.id))) {
      await go(`/console/issue?dataModelId=${model.id}`);
      await page.getByRole('button', { name: 'Preview what will be signed' }).waitFor();
      await checkPage(`issue-form-${model.credentialType}-${model.version}`);
    }
  });

  it('walks the library: register a received credential, its checks, verify again, tag and annotate', { timeout: 120_000 }, async () => {
    // A credential someone else issued, stored in the clear at its storage URL.
    const issued = await rig.t.call('POST', '/api/v1/credentials', {
      token: rig.token,
      body: issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did), { storageOptions: { encrypt: false } }),
    });
    expect(issued.status, issued.text).toBe(201);
    const { storageUri } = (await rig.t.call('GET', `/api/v1/credentials/${issued.body.credentialId}`, { token: rig.token })).body;

    await go('/console');
    await page.getByRole('link', { name: 'Library', exact: true }).click();
    await checkPage('library');
    await page.getByLabel('Where it is (URL)').fill(storageUri);
    await page.getByLabel('Name', { exact: true }).fill('Passport from the cell supplier');
    await page.getByLabel('Type', { exact: true }).selectOption('DPP');
    await page.getByLabel('Tags (optional)').fill('supplier-a');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/console\/library\/[a-z0-9]+$/);
    await expect(page.locator('#checks-title').innerText()).resolves.toBe('Verification 1: pending');
    await checkPage('library-record-pending');

    // The worker's verification of the pending generation, as the worker runs it.
    const logger = createLogger('error');
    const jobs = createJobQueue(rig.t.databaseUrl, logger);
    try {
      const recordId = page.url().split('/').pop()!;
      await runJob(libraryVerifyGeneration, { tenantId: (await rig.t.db.query.libraryRecords.findFirst({ where: (r, { eq }) => eq(r.id, recordId) }))!.tenantId, recordId, generation: 1 }, testWorkerDeps(rig.t.db, logger, jobs));
    } finally {
      await jobs.close();
    }
    await page.reload();
    await expect(page.locator('#checks-title').innerText()).resolves.toBe('Verification 1: verified');
    await expect(page.locator('#record-checks').innerText()).resolves.toContain('proof: pass');
    await checkPage('library-record');

    await page.getByRole('button', { name: 'Verify again' }).click();
    await expect(page.locator('#checks-title').innerText()).resolves.toBe('Verification 2: pending');
    await page.getByLabel('Tags (optional)').fill('supplier-a audited');
    await page.getByRole('button', { name: 'Save tags' }).click();
    await expect(page.locator('#record-tags').innerText()).resolves.toBe('supplier-a, audited');
    await page.getByLabel('Notes (optional)').fill('Checked against the delivery note');
    await page.getByRole('button', { name: 'Save annotations' }).click();
    await expect(page.getByLabel('Notes (optional)').inputValue()).resolves.toBe('Checked against the delivery note');
    // A refused tag is shown beside the field.
    await page.getByLabel('Tags (optional)').fill('Not A Tag!');
    await page.getByRole('button', { name: 'Save tags' }).click();
    await expect(page.locator('#tags-error').innerText()).resolves.toContain('lower-case');
    await checkPage('library-record-refused');
  });

  it('walks the render templates: upload, live preview as the person types, save, make the default', { timeout: 90_000 }, async () => {
    await go('/console');
    await page.getByRole('link', { name: 'Templates', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Passport card');
    await page.getByLabel('Data model', { exact: true }).selectOption(DPP_070);
    await page.getByLabel('Template (HTML with {{placeholders}})').fill('<h1>{{credentialSubject.name}}</h1>');
    // htmx posts the typed text and swaps the preview frame, under the nonce CSP.
    // The frame is sandboxed without scripts, so its document is read from the srcdoc htmx swapped in.
    const previewShows = (text: string) =>
      page.waitForFunction((expected) => document.querySelector('#preview iframe')?.getAttribute('srcdoc')?.includes(expected) ?? false, text, { timeout: 15_000 });
    await previewShows('<h1>Example Cell A1</h1>');
    await checkPage('templates', PREVIEW_FRAME);
    await page.getByRole('button', { name: 'Upload the template' }).click();
    await page.waitForURL(/\/console\/templates\/[a-z0-9]+$/);
    await expect(page.locator('#template-default').innerText()).resolves.toBe('no');
    await page.getByLabel('Template (HTML with {{placeholders}})').fill('<h2>Made by {{issuer.name}}</h2><script>console.log("x")</script>');
    await previewShows('<h2>Made by Example Manufacturing Ltd</h2>');
    await expect(page.locator('#preview iframe').getAttribute('srcdoc')).resolves.not.toContain('<script');
    await checkPage('template-edit', PREVIEW_FRAME);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Make it the default of its data model' }).click();
    await expect(page.locator('#template-default').innerText()).resolves.toBe('yes');
    await previewShows('<h2>Made by Example Manufacturing Ltd</h2>');
    await checkPage('template-default', PREVIEW_FRAME);
  });

  it('imports a DID the VC service holds, and shows a refused one beside its field', { timeout: 60_000 }, async () => {
    await go('/console/dids');
    await page.getByLabel('DID', { exact: true }).fill('did:key:z6Mk');
    await page.getByLabel('Key id').fill('key-1');
    await page.getByRole('button', { name: 'Import DID' }).click();
    await expect(page.locator('#did-error').innerText()).resolves.toContain('did:key is not supported');
    await checkPage('did-import-refused');
    await page.getByLabel('DID', { exact: true }).fill('did:web:imported.example.com');
    await page.getByLabel('Name of the imported DID (optional)').fill('Our own site');
    await page.getByRole('button', { name: 'Import DID' }).click();
    await page.waitForURL(/\/console\/dids\/[^/]+$/);
    await expect(page.locator('#did-status').innerText()).resolves.toBe('UNVERIFIED');
    await expect(page.locator('h1').innerText()).resolves.toBe('Our own site');
    await checkPage('did-imported');
  });

  it('shows every value typed into a form as text: no payload of the XSS corpus runs', { timeout: 60_000 }, async () => {
    for (const payload of FIELD_PAYLOADS) {
      await go('/console/organisations/new');
      await page.getByLabel('Name', { exact: true }).fill(payload);
      await page.getByLabel('Description').fill(payload);
      await page.getByRole('button', { name: 'Create organisation' }).click();
      await page.waitForURL(/saved=1$/);
    }
    await go('/console/organisations');
    for (const payload of FIELD_PAYLOADS) await expect(page.getByRole('link', { name: payload, exact: true }).count()).resolves.toBe(1);
    await page.getByRole('link', { name: FIELD_PAYLOADS[1]!, exact: true }).click();
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(FIELD_PAYLOADS[1]);
    // Refused input comes back as text too.
    await go('/console/products/new');
    await page.getByLabel('Name', { exact: true }).fill(FIELD_PAYLOADS[0]!);
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(FIELD_PAYLOADS[0]);
    expect(scriptHits).toEqual([]);
  });
});
