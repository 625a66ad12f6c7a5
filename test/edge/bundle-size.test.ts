import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEdgeEntry, edgeEntries } from '../../scripts/edge-bundle.ts';

/**
 * The size budget of the deployed edge bundles (minified, as `npm run build:edge` makes them): every entry, the
 * storage service (AWS SDK S3 client) included, stays under 500 KB. Startup time on an edge runtime grows with
 * the code it must parse, so a bundle past the budget fails here. `npm run build:edge -- --analyze <group>`
 * shows where a bundle's bytes go.
 */
const GROUP_BUDGET_BYTES = 500_000;

/**
 * Entries with a budget of their own, each with its reason. Issuance (functions/credentials/edge.ts, 676 KB) carries
 * RE2 for tenant qualifier patterns when it publishes (re2js, 151 KB: a native RegExp would change what a pattern
 * accepts and its linear time bound) and JSON-LD expansion (jsonld, 62 KB after the plugins of scripts/edge-bundle.ts),
 * both needed for the same behaviour as on Node. Start-up is why the budget exists: measured in workerd (miniflare, a
 * fresh runtime each time, median of 7 under load average ~19 on 2 cores), ready in 1,793 ms for this bundle against
 * 1,148 ms for identifiers (498 KB) and 1,101 ms for registrars (313 KB); the first request after that 52 vs 66 vs 63 ms.
 * The console's identifier, scheme and registrar pages (functions/console-registry/edge.ts, 518 KB) carry the same
 * RE2 for a scheme's pattern, for the same verdicts as on Node.
 */
const OWN_BUDGETS: Record<string, number> = { credentials: 700_000, 'console-registry': 700_000 };
const budgetOf = (group: string) => OWN_BUDGETS[group] ?? GROUP_BUDGET_BYTES;

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

  it.each(edgeEntries().map((e) => e.group))('keeps %s within the budget', (group) => {
    const { bytes } = sizes.get(group)!;
    expect(bytes, `${group}: ${bytes} bytes minified, budget ${budgetOf(group)}`).toBeLessThan(budgetOf(group));
  });

  it('gives a budget of its own only to entries that exist', () => {
    for (const group of Object.keys(OWN_BUDGETS)) expect(sizes.has(group), group).toBe(true);
  });

  it('leaves out zod locales other than English', async () => {
    const registrars = await readFile(join(dir, 'registrars.js'), 'utf8');
    // The German locale's message for a too-small value; English stays.
    expect(registrars).not.toContain('Zu klein');
    expect(registrars).toContain('Too small');
  });
});
