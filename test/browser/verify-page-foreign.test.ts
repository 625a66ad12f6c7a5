import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startForeignIssuer, type ForeignIssuer } from '../rig/foreign-issuer.ts';
import { launchBrowser, newContext, screenshot } from './browser-rig.ts';
import { pageUrl, startCredentialWorld, type CredentialWorld } from './credential-fixtures.ts';

/** The /verify page with a credential our code did not sign (test/rig/foreign-issuer.ts). */
let world: CredentialWorld;
let issuer: ForeignIssuer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let setupFailure: unknown;

beforeAll(async () => {
  const [launched, started] = await Promise.allSettled([
    launchBrowser(),
    startForeignIssuer().then(async (foreign) => {
      issuer = foreign;
      return startCredentialWorld({ vcEnv: foreign.vcEnv });
    }),
  ]);
  if (launched.status === 'fulfilled') browser = launched.value;
  if (started.status === 'fulfilled') world = started.value;
  setupFailure = [launched, started].find((outcome) => outcome.status === 'rejected')?.reason;
});
// Every test fails with the reason (no Chromium, a service that did not start): none is reported as skipped.
beforeEach(() => {
  if (setupFailure) throw setupFailure;
  issuer.lists.mode = 'jws';
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});
afterAll(async () => {
  await browser?.close();
  await world?.close();
  await issuer?.close();
});

const open = async (url: string) => {
  const context = await newContext(browser);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('#result').waitFor();
  return page;
};
const titleOf = (page: Page) => page.locator('#result-title').innerText();

describe('the verify page, a credential of another issuer', () => {
  it('shows Verified with their DID as the issuer', async () => {
    const credential = issuer.credential({ credentialStatus: issuer.statusEntry('revocation') });
    const stored = await world.store(await issuer.envelope(credential, 'multikey-p256'));
    const page = await open(pageUrl(world, { uri: stored.uri, digestMultibase: stored.digestMultibase }));
    expect(await titleOf(page)).toBe('Verified');
    expect(await page.locator('#summary').innerText()).toContain(issuer.did);
    await screenshot(page, 'foreign-verified');
  });

  it('revoked on their list, or their list unreadable: Not verified with the status reason', async () => {
    const entry = issuer.statusEntry('revocation');
    const stored = await world.store(await issuer.envelope(issuer.credential({ credentialStatus: entry })));
    issuer.setStatus(entry, true);
    const revoked = await open(pageUrl(world, { uri: stored.uri }));
    expect(await titleOf(revoked)).toBe('Not verified');
    expect(await revoked.locator('#result-reason').innerText()).toMatch(/revoked by the issuer/);

    issuer.lists.mode = 'down';
    const unreadable = await open(pageUrl(world, { uri: stored.uri }));
    expect(await titleOf(unreadable)).toBe('Not verified');
    expect(await unreadable.locator('#result-reason').innerText()).toMatch(/status could not be confirmed.*status list could not be read/);
    await screenshot(unreadable, 'foreign-status-unreadable');
  });
});
