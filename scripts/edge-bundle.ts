import { build } from 'esbuild';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Bundles one edge entry the way an edge runtime (workerd) loads it: ESM, platform-neutral, the
 * `workerd`/`worker`/`browser` export conditions (postgres.js then speaks over `cloudflare:sockets`).
 */
export const bundleEdgeEntry = async (entry: string, outfile: string) => {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['node:*', 'cloudflare:*'],
    logLevel: 'error',
  });
};

/** Every group that has an edge entry: `functions/<group>/edge.ts`. */
export const edgeEntries = (functionsDir = 'functions') =>
  readdirSync(functionsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(functionsDir, d.name, 'edge.ts')))
    .map((d) => ({ group: d.name, entry: join(functionsDir, d.name, 'edge.ts') }));

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { group, entry } of edgeEntries()) {
    await bundleEdgeEntry(entry, join('dist', 'edge', `${group}.js`));
    console.log(`dist/edge/${group}.js`);
  }
}
