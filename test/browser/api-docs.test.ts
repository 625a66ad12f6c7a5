import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWAGGER_UI_ASSETS_PATH } from '../../core/service-kit/api-docs-page.ts';
import { startStorage, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { startTestApp, type TestApp } from '../rig/test-app.ts';
import { launchBrowser, newContext } from './browser-rig.ts';

let t: TestApp;
let storage: StorageHarness;
let browser: Browser;

beforeAll(async () => {
  [t, storage, browser] = await Promise.all([startTestApp(), startStorage('local'), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await storage?.close();
  await t?.close();
});

/**
 * Opens `base`/api-docs with every request to another host refused (as with no network), keeping what was refused,
 * what the page's Content-Security-Policy blocked and what threw.
 */
const openOffline = async (base = t.url): Promise<{ page: Page; offHost: string[]; problems: string[] }> => {
  const context = await newContext(browser);
  const { host } = new URL(base);
  const offHost: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === host) return route.continue();
    offHost.push(url.href);
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP blocked ${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(`${base}/api-docs`);
  // Swagger UI parses a 1.7 MB bundle and renders ~80 operations: on a busy machine that alone can pass the 10 s default.
  await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
  return { page, offHost, problems };
};

// Swagger UI renders about 80 operations and axe walks every node: tens of seconds on a busy machine.
describe('/api-docs', { timeout: 120_000 }, () => {
  it('lists the operations with no network beyond the app, with nothing blocked and nothing thrown', async () => {
    const { page, offHost, problems } = await openOffline();
    const operations = await page.locator('.opblock-summary-path').allInnerTexts();
    expect(operations.length).toBeGreaterThan(80);
    expect(operations).toContain('/api/v1/credentials');
    await expect.poll(() => page.locator('.opblock-summary-operation-id').count()).toBeGreaterThan(0);
    expect(await page.locator('#operations-Registrars-createRegistrar').count()).toBe(1);
    expect(await page.locator('select#servers').inputValue()).toBe(t.url);
    expect(offHost).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('"Try it out" calls the API on this origin under the policy (GET /api/health)', async () => {
    const { page, offHost, problems } = await openOffline();
    const operation = page.locator('#operations-Health-getHealth');
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    await expect.poll(() => operation.locator('.live-responses-table tr.response .response-col_status').first().innerText(), { timeout: 30_000 }).toBe('200');
    expect(await operation.locator('.live-responses-table .microlight').first().innerText()).toContain('"status": "ok"');
    expect(offHost).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('has no accessibility violations (axe, WCAG 2.1 A and AA) with the page and an operation open', async () => {
    const { page } = await openOffline();
    await page.locator('#operations-Registrars-createRegistrar').waitFor();
    await page.locator('#operations-Registrars-createRegistrar .opblock-summary-control').click();
    await page.locator('#operations-Registrars-createRegistrar .opblock-body').waitFor();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0]?.target.join(' ')})`)).toEqual([]);
    await page.context().close();
  });

  it('is served under a strict policy, and its Swagger UI files from the pinned package on this origin', async () => {
    const response = await fetch(`${t.url}/api-docs`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).not.toMatch(/<script>|https?:\/\//);
    const bundle = await fetch(`${t.url}${SWAGGER_UI_ASSETS_PATH}/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(bundle.headers.get('cache-control')).toContain('immutable');
    expect(await bundle.text()).not.toContain('sourceMappingURL');
    expect((await fetch(`${t.url}${SWAGGER_UI_ASSETS_PATH}/package.json`)).status).toBe(404);
    expect((await fetch(`${t.url}${SWAGGER_UI_ASSETS_PATH}/..%2Fpackage.json`)).status).toBe(404);
    const doc = (await t.call('GET', '/api-docs/openapi.json')).body;
    expect(doc.servers).toEqual([{ url: t.url, description: expect.any(String) }]);
  });
});

/** The storage service's own explorer: the same page, policy and pinned files, from its own origin. */
describe('/api-docs of the storage service', { timeout: 120_000 }, () => {
  it('lists its operations with no network beyond the service, nothing blocked, nothing thrown, no axe violations', async () => {
    const { page, offHost, problems } = await openOffline(storage.url);
    expect(await page.title()).toBe('Credential Support Service: storage');
    const operations = await page.locator('.opblock-summary-path').allInnerTexts();
    expect(operations).toEqual(expect.arrayContaining(['/api/3.0.0/public', '/api/v4/private', '/api/v4/{bucket}/{id}']));
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0]?.target.join(' ')})`)).toEqual([]);
    expect(offHost).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('"Try it out" reads from this origin under the policy (an unknown object: 404)', async () => {
    const { page, offHost, problems } = await openOffline(storage.url);
    const operation = page.locator('.opblock-get').first();
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.try-out__btn').click();
    const inputs = operation.locator('.parameters input[type=text]');
    await inputs.nth(0).fill('documents');
    await inputs.nth(1).fill(`${crypto.randomUUID()}.json`);
    await operation.locator('button.execute').click();
    await expect.poll(() => operation.locator('.live-responses-table tr.response .response-col_status').first().innerText(), { timeout: 30_000 }).toBe('404');
    expect(offHost).toEqual([]);
    expect(problems.filter((p) => !p.includes('404'))).toEqual([]);
    await page.context().close();
  });

  it('is served under the same strict policy, its Swagger UI files from the pinned package on its own origin', async () => {
    const response = await fetch(`${storage.url}/api-docs`);
    expect(response.headers.get('content-security-policy')).toBe((await fetch(`${t.url}/api-docs`)).headers.get('content-security-policy'));
    const html = await response.text();
    expect(html).not.toMatch(/<script>|https?:\/\//);
    expect(html).toContain('<title>Credential Support Service: storage</title>');
    const bundle = await fetch(`${storage.url}${SWAGGER_UI_ASSETS_PATH}/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${storage.url}${SWAGGER_UI_ASSETS_PATH}/package.json`)).status).toBe(404);
  });
});
