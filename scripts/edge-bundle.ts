import { build, type Plugin } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, sep } from 'node:path';

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
 * zod re-exports every message locale (`z.locales`, ~260 KB minified) though only English is ever used
 * (zod configures it itself, and so do we): inside zod, the locale index resolves to English alone.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${sep}node_modules${sep}zod${sep}`)
        ? { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * Bundles one edge entry the way an edge runtime (workerd) loads it: ESM, platform-neutral, the
 * `workerd`/`worker`/`browser` export conditions (postgres.js then speaks over `cloudflare:sockets`).
 * `browser` also applies packages' `browser` file maps, which the AWS SDK needs for its fetch-based
 * runtime (the storage service's S3 backend). Minified, as deployed; returns the bundle's size.
 */
export const bundleEdgeEntry = async (entry: string, outfile: string, platform: 'neutral' | 'browser' = 'neutral') => {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform,
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['node:*', 'cloudflare:*'],
    minify: true,
    plugins: platform === 'browser' ? [awsXmlParserWithoutDom, zodEnglishOnly] : [zodEnglishOnly],
    metafile: true,
    logLevel: 'error',
  });
  const [output] = Object.values(result.metafile.outputs);
  return { bytes: output!.bytes };
};

export interface EdgeEntry {
  /** The wrangler environment (and bundle name). */
  group: string;
  entry: string;
  platform: 'neutral' | 'browser';
  /** What wrangler deploys: our bundle of the entry (`no_bundle`, built by `npm run build:edge`). */
  main: string;
}

/**
 * Every edge entry: each resource group with `functions/<group>/edge.ts`, and the storage service (the
 * AWS SDK needs `browser` file maps and the DOM-free XML parser, see above). Wrangler deploys our
 * bundles as they are, so what is measured and size-guarded here is what runs.
 */
export const edgeEntries = (functionsDir = 'functions'): EdgeEntry[] => [
  ...readdirSync(functionsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(functionsDir, d.name, 'edge.ts')))
    .map((d) => {
      const entry = join(functionsDir, d.name, 'edge.ts');
      return { group: d.name, entry, platform: 'neutral' as const, main: `dist/edge/${d.name}.js` };
    }),
  { group: 'storage', entry: 'storage-service/edge.ts', platform: 'browser', main: 'dist/edge/storage.js' },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { group, entry, platform } of edgeEntries()) {
    const outfile = join('dist', 'edge', `${group}.js`);
    const { bytes } = await bundleEdgeEntry(entry, outfile, platform);
    const gzipped = gzipSync(readFileSync(outfile)).length;
    console.log(`${outfile}: ${(bytes / 1024).toFixed(0)} KB minified, ${(gzipped / 1024).toFixed(0)} KB gzip`);
  }
}
