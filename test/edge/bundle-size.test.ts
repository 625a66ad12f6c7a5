import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEdgeEntry, edgeEntries } from '../../scripts/edge-bundle.ts';

/**
 * Size budgets of the deployed edge bundles (minified, as `npm run build:edge` makes them): a resource
 * group stays under 500 KB; the storage service, which carries the AWS SDK's S3 client, under 650 KB.
 * Startup time on an edge runtime grows with the code it must parse, so a bundle past its budget fails here.
 */
const GROUP_BUDGET_BYTES = 500_000;
/**
 * Groups over the 500 KB target, each with the reason (open work, not a goal):
 * identifiers and schemes evaluate tenant patterns with the linear-time RE2 engine (re2js, ~160 KB minified);
 * dids carries the JSON Schema interpreter for DID documents (~22 KB) on top of a base every group shares, which
 * grew by ~10 KB with the wave-2 settings readers (issuance, status, batches, library). The storage service carries the AWS SDK's S3 client.
 */
const OVER_TARGET_BUDGETS: Record<string, number> = { identifiers: 660_000, schemes: 640_000, dids: 530_000, storage: 650_000 };
const budgetOf = (group: string) => OVER_TARGET_BUDGETS[group] ?? GROUP_BUDGET_BYTES;

describe('edge bundle sizes', () => {
  let dir: string;
  const sizes = new Map<string, { bytes: number; gzip: number }>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-bundle-size-'));
    for (const { group, entry, platform } of edgeEntries()) {
      const outfile = join(dir, `${group}.js`);
      const { bytes } = await bundleEdgeEntry(entry, outfile, platform);
      sizes.set(group, { bytes, gzip: gzipSync(await readFile(outfile)).length });
    }
    console.table(
      [...sizes].map(([group, { bytes, gzip }]) => ({ group, 'KB minified': Math.round(bytes / 1000), 'KB gzip': Math.round(gzip / 1000), 'budget KB': budgetOf(group) / 1000 })),
    );
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('bundles every edge entry', () => {
    expect([...sizes.keys()].sort()).toEqual(edgeEntries().map((e) => e.group).sort());
  });

  it.each(edgeEntries().map((e) => e.group))('keeps %s within its budget', (group) => {
    const { bytes } = sizes.get(group)!;
    expect(bytes, `${group}: ${bytes} bytes minified, budget ${budgetOf(group)}`).toBeLessThan(budgetOf(group));
  });

  it('leaves out zod locales other than English', async () => {
    const registrars = await readFile(join(dir, 'registrars.js'), 'utf8');
    // The German locale's message for a too-small value; English stays.
    expect(registrars).not.toContain('Zu klein');
    expect(registrars).toContain('Too small');
  });
});
