import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTEFACTS_MODULE, bundleEdgeEntry, edgeEntries, type EdgeChunk } from '../../scripts/edge-bundle.ts';

/**
 * The size budget of the deployed edge bundles (minified, as `npm run build:edge` makes them): what an isolate parses
 * at start-up (the bundle and the chunks it imports statically) stays under 500 KB for every entry, the storage
 * service (AWS SDK S3 client) and issuance included. Startup time on an edge runtime grows with the code it must
 * parse, so a bundle past the budget fails here. `npm run build:edge -- --analyze <group>` shows where a bundle's
 * bytes go.
 *
 * What is rarely needed and large is imported on first use and bundled as modules of its own beside the bundle
 * (scripts/edge-bundle.ts): RE2 for tenant patterns (re2js, 151 KB), JSON-LD expansion (jsonld, 95 KB), the
 * template sanitiser (sanitize-html, 103 KB) and the QR encoder (qrcode, 25 KB). An isolate loads one only when a
 * request needs it, so they are not start-up code; their total per entry has a ceiling of its own, so they cannot
 * grow unnoticed either.
 */
const STARTUP_BUDGET_BYTES = 500_000;
const ON_FIRST_USE_CEILING_BYTES = 400_000;

const wrangler = readFileSync('wrangler.toml', 'utf8');
/** An environment's own keys (up to its first sub-table). */
const sectionOf = (group: string) => wrangler.split(`[env.${group}]\n`)[1]?.split(/^\[/m)[0] ?? '';

describe('edge bundle sizes', () => {
  let dir: string;
  const sizes = new Map<string, { bytes: number; gzip: number; chunks: EdgeChunk[]; onFirstUse: number; readsArtefacts: boolean }>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-bundle-size-'));
    for (const { group, entry, platform } of edgeEntries()) {
      const outfile = join(dir, `${group}.js`);
      const { bytes, startUp, onFirstUse, readsArtefacts } = await bundleEdgeEntry(entry, outfile, platform);
      const startUpFiles = [outfile, ...startUp.map((c) => join(dir, c.file))];
      const gzip = (await Promise.all(startUpFiles.map(async (f) => gzipSync(await readFile(f)).length))).reduce((a, b) => a + b, 0);
      sizes.set(group, { bytes, gzip, chunks: [...startUp, ...onFirstUse], onFirstUse: onFirstUse.reduce((sum, c) => sum + c.bytes, 0), readsArtefacts });
    }
    console.table(
      [...sizes].map(([group, { bytes, gzip, onFirstUse }]) => ({
        group,
        'KB at start-up': Math.round(bytes / 1000),
        'KB gzip': Math.round(gzip / 1000),
        'KB on first use': Math.round(onFirstUse / 1000),
      })),
    );
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('bundles every edge entry', () => {
    expect([...sizes.keys()].sort()).toEqual(edgeEntries().map((e) => e.group).sort());
  });

  it.each(edgeEntries().map((e) => e.group))('keeps %s within the budget, at start-up and on first use', (group) => {
    const { bytes, onFirstUse } = sizes.get(group)!;
    expect(bytes, `${group}: ${bytes} bytes minified at start-up, budget ${STARTUP_BUDGET_BYTES}`).toBeLessThan(STARTUP_BUDGET_BYTES);
    expect(onFirstUse, `${group}: ${onFirstUse} bytes minified loaded on first use, ceiling ${ON_FIRST_USE_CEILING_BYTES}`).toBeLessThan(ON_FIRST_USE_CEILING_BYTES);
  });

  it("names every chunk after its group (dist/edge holds every group's), and wrangler uploads each group's chunks (and the artefacts) with it", () => {
    for (const [group, { chunks, readsArtefacts }] of sizes) {
      if (chunks.length === 0 && !readsArtefacts) continue;
      const section = sectionOf(group);
      expect(section, group).toMatch(/^find_additional_modules = true$/m);
      expect(section, group).toMatch(/^base_dir = "dist\/edge"$/m);
      const globs = [...section.matchAll(/\{ type = "ESModule", globs = \[([^\]]*)\] \}/g)].flatMap((m) => [...m[1]!.matchAll(/"([^"]+)"/g)].map((g) => g[1]!));
      if (chunks.length > 0) expect(globs, group).toContain(`${group}.chunk-*.mjs`);
      if (readsArtefacts) expect(globs, group).toContain(ARTEFACTS_MODULE);
      for (const { file } of chunks) expect(file, group).toMatch(new RegExp(`^${group}\\.chunk-[A-Z0-9]+\\.mjs$`));
    }
  });

  it('leaves out zod locales other than English', async () => {
    const registrars = await readFile(join(dir, 'registrars.js'), 'utf8');
    // The German locale's message for a too-small value; English stays.
    expect(registrars).not.toContain('Zu klein');
    expect(registrars).toContain('Too small');
  });
});
