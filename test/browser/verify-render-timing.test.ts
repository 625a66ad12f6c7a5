import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, launchBrowser, newContext } from './browser-rig.ts';
import { pageUrl, startCredentialWorld, type CredentialWorld } from './credential-fixtures.ts';

/**
 * Time to first render of a 100 KB credential on /verify under a throttled mobile profile (Chromium's CDP:
 * 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower; 390 px), beside floors measured in the same
 * run: the same credential unthrottled, and the page's own shell (its lookup form) under the same profile. The
 * numbers are written to test/artifacts/verify/time-to-first-render.json and printed; nothing is asserted on them
 * (timings on a shared machine), only that the credential rendered.
 */
let world: CredentialWorld;
let browser: Browser;
beforeAll(async () => {
  [browser, world] = await Promise.all([launchBrowser(), startCredentialWorld()]);
});
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const MOBILE = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

const timed = async (url: string, throttled: boolean, ready: (page: Page) => Promise<unknown>) => {
  const context = await newContext(browser, { width: 390, height: 844 });
  context.setDefaultTimeout(60_000);
  try {
    const page = await context.newPage();
    if (throttled) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...MOBILE });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    }
    const started = performance.now();
    await page.goto(url);
    await ready(page);
    return Math.round(performance.now() - started);
  } finally {
    await context.close();
  }
};

const TEMPLATE = '<main><h1 id="t">{{credentialSubject.name}}</h1><ul>{{#each credentialSubject.claims}}<li>{{name}}: {{measure.value}} {{measure.unit}}{{#if conforms}} ✓{{/if}}</li>{{/each}}</ul></main>';

describe('time to first render', { timeout: 300_000 }, () => {
  it('a 100 KB credential on a throttled mobile profile, with its floors', async () => {
    const claims = Array.from({ length: 900 }, (_, i) => ({ name: `Claim ${i} ${'·'.repeat(40)}`, measure: { value: i / 10, unit: 'KGM' }, conforms: i % 2 === 0 }));
    const credential = world.credential({ credentialSubject: { id: 'https://id.example.com/01/09520123456788', name: 'Widget', claims }, renderMethod: [{ type: ['RenderTemplate2024'], template: TEMPLATE }] });
    const bytes = Buffer.byteLength(JSON.stringify(credential));
    expect(bytes).toBeGreaterThan(100_000);
    const published = await world.publish(credential);
    const url = pageUrl(world, { uri: published.uri, digestMultibase: published.digestMultibase });
    const rendered = (page: Page) => page.frameLocator('#rendered').locator('#t').waitFor();
    const shell = (page: Page) => page.locator('#lookup').waitFor();

    await timed(url, false, rendered); // warm the server's caches once
    const results = {
      credentialBytes: bytes,
      profile: { ...MOBILE, cpuSlowdown: 4, viewport: '390x844' },
      unthrottledMs: [] as number[],
      throttledMs: [] as number[],
      throttledShellMs: [] as number[],
    };
    for (let round = 0; round < 3; round += 1) {
      results.unthrottledMs.push(await timed(url, false, rendered));
      results.throttledMs.push(await timed(url, true, rendered));
      results.throttledShellMs.push(await timed(pageUrl(world, {}), true, shell));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const summary = { ...results, medians: { unthrottled: median(results.unthrottledMs), throttled: median(results.throttledMs), throttledShell: median(results.throttledShellMs) } };
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await writeFile(join(ARTIFACTS_DIR, 'time-to-first-render.json'), `${JSON.stringify(summary, null, 2)}\n`);
    console.log('time to first render', JSON.stringify(summary.medians), `${bytes} bytes`);
  });
});
