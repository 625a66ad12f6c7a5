import { build, type Plugin } from 'esbuild';
import { readdirSync, existsSync } from 'node:fs';
import { join, sep } from 'node:path';

/**
 * The AWS SDK's browser XML parser needs `DOMParser`, which edge runtimes lack: its own JavaScript
 * parser (the Node one) is used instead.
 */
const awsXmlParserWithoutDom: Plugin = {
  name: 'aws-xml-parser-without-dom',
  setup(builder) {
    builder.onResolve({ filter: /^\.\/xml-parser$/ }, (args) =>
      args.importer.includes(`${sep}@aws-sdk${sep}xml-builder${sep}`) ? { path: join(args.resolveDir, 'xml-parser.js') } : undefined,
    );
  },
};

/**
 * Bundles one edge entry the way an edge runtime (workerd) loads it: ESM, platform-neutral, the
 * `workerd`/`worker`/`browser` export conditions (postgres.js then speaks over `cloudflare:sockets`).
 * `browser` also applies packages' `browser` file maps, which the AWS SDK needs for its fetch-based
 * runtime (the storage service's S3 backend).
 */
export const bundleEdgeEntry = async (entry: string, outfile: string, platform: 'neutral' | 'browser' = 'neutral') => {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform,
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['node:*', 'cloudflare:*'],
    plugins: platform === 'browser' ? [awsXmlParserWithoutDom] : [],
    logLevel: 'error',
  });
};

export interface EdgeEntry {
  /** The wrangler environment (and bundle name). */
  group: string;
  entry: string;
  platform: 'neutral' | 'browser';
  /** What wrangler deploys: the entry itself (wrangler bundles it), or our bundle of it (`no_bundle`). */
  main: string;
}

/**
 * Every edge entry: each resource group with `functions/<group>/edge.ts` (bundled by wrangler), and
 * the storage service, which wrangler deploys from our own bundle (the AWS SDK needs `browser` file
 * maps and the DOM-free XML parser, see above).
 */
export const edgeEntries = (functionsDir = 'functions'): EdgeEntry[] => [
  ...readdirSync(functionsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(functionsDir, d.name, 'edge.ts')))
    .map((d) => {
      const entry = join(functionsDir, d.name, 'edge.ts');
      return { group: d.name, entry, platform: 'neutral' as const, main: entry };
    }),
  { group: 'storage', entry: 'storage-service/edge.ts', platform: 'browser', main: 'dist/edge/storage.js' },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { group, entry, platform } of edgeEntries()) {
    await bundleEdgeEntry(entry, join('dist', 'edge', `${group}.js`), platform);
    console.log(`dist/edge/${group}.js`);
  }
}
