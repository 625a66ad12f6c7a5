import { build, type Plugin } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

/**
 * The AWS SDK's browser XML parser needs `DOMParser`, which edge runtimes lack: its own JavaScript
 * parser (the Node one) is used instead.
 */
export const awsXmlParserWithoutDom: Plugin = {
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
export const zodEnglishOnly: Plugin = {
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
 * `@hono/zod-openapi` passes the whole `z` namespace to `extendZodWithOpenApi(z)`, which only reads
 * `z.ZodType` (to add `.openapi()` to its prototype); passing the namespace as a value keeps every zod export
 * in the bundle (~110 KB minified: JSON Schema conversion, the `z.compile` code generator). Inside that package,
 * `zod` resolves to `{ ZodType }` alone, so esbuild shakes zod down to what our schemas use. Our code therefore
 * imports zod itself (`import * as z from 'zod'`, test/edge/zod-imports.test.ts), never `z` from `@hono/zod-openapi`.
 */
export const zodOpenApiExtendsZodTypeOnly: Plugin = {
  name: 'zod-openapi-extends-zod-type-only',
  setup(builder) {
    builder.onResolve({ filter: /^zod$/ }, (args) =>
      args.namespace === 'file' && args.importer.includes(`${sep}node_modules${sep}@hono${sep}zod-openapi${sep}`)
        ? { path: args.resolveDir, namespace: 'zod-type-only' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-type-only' }, (args) => ({
      contents: [
        `import { ZodType } from 'zod';`,
        `const only = { ZodType };`,
        `const fail = (name) => { throw new Error("z." + String(name) + " is not available from @hono/zod-openapi on the edge: import * as z from 'zod' (scripts/edge-bundle.ts)"); };`,
        `export const z = new Proxy(only, { get: (target, name) => (name in target ? target[name] : fail(name)) });`,
      ].join('\n'),
      resolveDir: args.path,
      loader: 'js',
    }));
  },
};

/**
 * A resource group on the edge serves its routes, not the OpenAPI document (only the Node web process and
 * the storage service serve /api-docs): inside `@hono/zod-openapi`, `@asteasolutions/zod-to-openapi` resolves
 * to its registry, `.openapi()` extension and metadata reader, which routes use, with generators that throw
 * (~22 KB minified). The storage service keeps the real package: it serves its own /api-docs on the edge too.
 */
export const openApiWithoutGenerators: Plugin = {
  name: 'openapi-without-generators',
  setup(builder) {
    builder.onResolve({ filter: /^@asteasolutions\/zod-to-openapi$/ }, (args) =>
      args.namespace === 'file' && args.importer.includes(`${sep}node_modules${sep}@hono${sep}zod-openapi${sep}`)
        ? { path: args.resolveDir, namespace: 'openapi-without-generators' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'openapi-without-generators' }, (args) => ({
      contents: [
        `export { OpenAPIRegistry, extendZodWithOpenApi, getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';`,
        `class NoOpenApiDocument { constructor() { throw new Error('The OpenAPI document is not generated on the edge (see /api-docs on the web process)'); } }`,
        `export { NoOpenApiDocument as OpenApiGeneratorV3, NoOpenApiDocument as OpenApiGeneratorV31 };`,
      ].join('\n'),
      resolveDir: args.path,
      loader: 'js',
    }));
  },
};

/**
 * A group's `openapi-examples.ts` holds the request and response examples of the OpenAPI document, which an edge
 * entry never generates (see `openApiWithoutGenerators`): routes only carry them as metadata for the document. On
 * the edge each of its exports stands in as `undefined`, so no entry carries the examples' text.
 */
export const examplesOnlyInDocument: Plugin = {
  name: 'examples-only-in-document',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]functions[\\/][^\\/]+[\\/]openapi-examples\.ts$/ }, (args) => ({
      contents: exportedNames(args.path).map((name) => `export const ${name} = undefined;`).join('\n'),
      loader: 'js',
    }));
  },
};

/** The names a package module exports as `export const|function|class NAME` (to stand in for each of them). */
const exportedNames = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^export (?:const|function|class) (\w+)/gm)].map((m) => m[1]!);

const NOT_ON_EDGE = `() => { throw new Error('not bundled for the edge (scripts/edge-bundle.ts)'); }`;

/**
 * Modules of packages that edge entries provably never run, each resolved (only where the named package
 * imports it) to a stand-in that throws if it ever is:
 * - zod's JSON Schema conversion (~12 KB minified): every schema carries `toJSONSchema()` and a `processJSONSchema`
 *   hook, but nothing here converts schemas (zod-to-openapi has its own generator); `aggregateChecks` stays real,
 *   for the `minLength`/`format` getters.
 * - drizzle's builder set for `pgTable(name, (t) => ({ ... }))` (every PostgreSQL column type, ~11 KB): our tables
 *   declare their columns as objects (`pgTable(name, { id: text('id') })`), so the callback form never runs.
 * - postgres.js's logical-replication `sql.subscribe` and `sql.largeObject` (~5 KB): never used by us; without the
 *   real `Subscribe`, a client no longer builds its (unconnected) replication client on every request either.
 * - postcss inside sanitize-html (~90 KB, and Node's `path`, `url` and `fs`): it parses style attributes and checks
 *   `allowedStyles`, neither of which our sanitiser asks for (`parseStyleAttributes: false`).
 * - Node's `stream` inside papaparse: only its Node-stream input (`Papa.parse(Papa.NODE_STREAM_INPUT)`) needs it;
 *   the console parses an uploaded file's text (functions/console/batches/batch-rows.ts).
 */
export const unusedOnEdge: Plugin = {
  name: 'unused-on-edge',
  setup(builder) {
    const standIns: { importer: string; specifier: RegExp; contents: (real: string) => string }[] = [
      {
        importer: join('zod', 'v4', 'classic', 'schemas.js'),
        specifier: /^\.\.\/core\/json-schema-processors\.js$/,
        contents: (real) =>
          [
            `export { aggregateChecks } from ${JSON.stringify(real)};`,
            `const notOnEdge = ${NOT_ON_EDGE};`,
            ...exportedNames(real)
              .filter((name) => name !== 'aggregateChecks')
              .map((name) => `export const ${name} = notOnEdge;`),
          ].join('\n'),
      },
      {
        importer: join('zod', 'v4', 'classic', 'schemas.js'),
        specifier: /^\.\.\/core\/to-json-schema\.js$/,
        contents: (real) => exportedNames(real).map((name) => `export const ${name} = () => ${NOT_ON_EDGE};`).join('\n'),
      },
      {
        importer: join('drizzle-orm', 'pg-core', 'table.js'),
        specifier: /^\.\/columns\/all\.js$/,
        contents: () => `export const getPgColumnBuilders = ${NOT_ON_EDGE};`,
      },
      {
        importer: join('postgres', 'cf', 'src', 'index.js'),
        specifier: /^\.\/subscribe\.js$/,
        contents: () => `export default () => ${NOT_ON_EDGE};`,
      },
      {
        importer: join('postgres', 'cf', 'src', 'index.js'),
        specifier: /^\.\/large\.js$/,
        contents: () => `export default ${NOT_ON_EDGE};`,
      },
      {
        importer: join('sanitize-html', 'index.js'),
        specifier: /^postcss$/,
        contents: () => `export const parse = ${NOT_ON_EDGE};`,
      },
      {
        importer: join('papaparse', 'papaparse.js'),
        specifier: /^stream$/,
        contents: () => `export const Duplex = ${NOT_ON_EDGE};`,
      },
    ];
    for (const { importer, specifier, contents } of standIns) {
      builder.onResolve({ filter: specifier }, (args) =>
        args.namespace === 'file' && args.importer.endsWith(`${sep}node_modules${sep}${importer}`)
          ? { path: join(args.resolveDir, args.path), namespace: 'unused-on-edge', pluginData: contents }
          : undefined,
      );
    }
    builder.onLoad({ filter: /.*/, namespace: 'unused-on-edge' }, (args) => ({
      contents: (args.pluginData as (real: string) => string)(args.path),
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * Modules that read files when loaded (the verify page's own scripts and styles, `node:fs`), which an edge
 * runtime cannot: in the bundle each is replaced by its values as loaded now, in Node, at bundle time
 * (Maps as Maps, the rest as JSON). So whatever the module reads, the bundle serves the same.
 */
const LOADED_AT_BUNDLE_TIME = [join('functions', 'verify-page', 'page-assets.ts'), join('functions', 'console', 'asset-sources.ts')];

export const filesInlinedAtBundleTime: Plugin = {
  name: 'files-inlined-at-bundle-time',
  setup(builder) {
    const filter = new RegExp(`(${LOADED_AT_BUNDLE_TIME.map((f) => f.replaceAll('.', '\\.').replaceAll(sep, `\\${sep}`)).join('|')})$`);
    builder.onLoad({ filter }, async (args) => {
      const loaded = (await import(args.path)) as Record<string, unknown>;
      const values = Object.entries(loaded).map(([name, value]) =>
        value instanceof Map ? `export const ${name} = new Map(${JSON.stringify([...value])});` : `export const ${name} = ${JSON.stringify(value)};`,
      );
      return { contents: values.join('\n'), loader: 'js' };
    });
  },
};

const SANITISER_POOL = join('core', 'render-templates', 'sanitize-pool.ts');

/**
 * Render-template sanitising runs in worker threads on Node (core/render-templates/sanitize-pool.ts: piscina, so
 * a hostile template cannot stall the event loop), which an edge runtime has not; there the same sanitiser runs
 * in the request, bounded by the runtime's own CPU limit per request. It is imported where first called, so
 * sanitize-html (~100 KB) is a module loaded on first use (see `bundleEdgeEntry`), not start-up code.
 */
export const sanitiserInline: Plugin = {
  name: 'sanitiser-inline',
  setup(builder) {
    builder.onLoad({ filter: new RegExp(`${SANITISER_POOL.replaceAll('.', '\\.').replaceAll(sep, `\\${sep}`)}$`) }, (args) => ({
      contents: [
        `export const sanitizeOffThread = async (html) => (await import('./sanitize.ts')).sanitizeTemplate(html);`,
        `export const closeSanitiserPool = async () => {};`,
      ].join('\n'),
      resolveDir: dirname(args.path),
      loader: 'ts',
    }));
  },
};

/**
 * qrcode's main file pulls in its PNG and file renderers (Node's fs and zlib); its browser build, which its
 * package maps for browsers, has the same `create` (core/qr draws the SVG and PNG itself) without them.
 */
export const qrcodeBrowserBuild: Plugin = {
  name: 'qrcode-browser-build',
  setup(builder) {
    builder.onResolve({ filter: /^qrcode$/ }, (args) =>
      args.namespace === 'file' ? { path: join(dirname(createRequire(args.importer).resolve('qrcode')), 'browser.js') } : undefined,
    );
  },
};

/** Packages whose `browser` file map (package.json) the neutral bundle applies: their Node files need `http`, `https`, `crypto`. */
const BROWSER_MAPPED = ['jsonld', 'rdf-canonize'];

/**
 * jsonld.js and rdf-canonize map their Node-only files (the Node document loader, the `crypto` digest) to browser
 * ones in package.json's `browser` field, which esbuild applies only to browser bundles: here, to these two packages'
 * own relative imports. Issuance passes jsonld its own document loader, so neither loader ever fetches.
 */
export const jsonLdBrowserFiles: Plugin = {
  name: 'jsonld-browser-files',
  setup(builder) {
    const maps = new Map(
      BROWSER_MAPPED.map((name) => {
        const root = dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
        const browser = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).browser as Record<string, string | false>;
        return [root, browser] as const;
      }),
    );
    builder.onResolve({ filter: /^\./ }, (args) => {
      if (args.namespace !== 'file') return undefined;
      for (const [root, browser] of maps) {
        if (!args.importer.startsWith(`${root}${sep}`)) continue;
        const target = join(args.resolveDir, args.path);
        for (const [from, to] of Object.entries(browser)) {
          if (!from.startsWith('./') || typeof to !== 'string') continue;
          const mapped = join(root, from);
          if (target === mapped || `${target}.js` === mapped) return { path: join(root, to) };
        }
      }
      return undefined;
    });
  },
};

/** jsonld.js's algorithms other than expansion, which is all issuance runs (core/credentials/jsonld-expansion.ts). */
const JSONLD_UNUSED = /^\.\/(compact|flatten|frame|fromRdf|toRdf|nodeMap|NQuads)$/;

/**
 * jsonld.js loads every algorithm of the library (compaction, framing, flattening, RDF both ways, N-Quads) from its
 * main module; issuance only expands. Inside that module, the others resolve to a stand-in whose every export throws
 * if it is ever called (~35 KB minified less).
 */
export const jsonLdExpansionOnly: Plugin = {
  name: 'jsonld-expansion-only',
  setup(builder) {
    builder.onResolve({ filter: JSONLD_UNUSED }, (args) =>
      args.namespace === 'file' && args.importer.endsWith(join('node_modules', 'jsonld', 'lib', 'jsonld.js'))
        ? { path: join(args.resolveDir, args.path), namespace: 'jsonld-expansion-only' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'jsonld-expansion-only' }, () => ({
      contents: `const notOnEdge = ${NOT_ON_EDGE};\nmodule.exports = new Proxy({}, { get: (target, name) => (typeof name === 'symbol' || name === '__esModule' ? undefined : notOnEdge) });`,
      loader: 'js',
    }));
  },
};

const ARTEFACT_FILES = join('core', 'credentials', 'artefact-files.ts');
const ARTEFACT_DIR = fileURLToPath(new URL('../core/credentials/artefacts/', import.meta.url));
/** The module beside an edge bundle that holds the bundled UNTP and W3C artefacts (see `artefactsModule`). */
export const ARTEFACTS_MODULE = 'untp-artefacts.mjs';

/**
 * Issuance's payload checks fall back to bundled copies of the UNTP and W3C contexts and schemas when their hosts
 * cannot be reached (core/credentials/bundled-artefacts.ts). Node reads them from disk; an edge runtime has no such
 * folder, so there they are a module of their own beside the bundle (1.2 MB of text, written by `bundleEdgeEntry`),
 * imported on first use only: an isolate that never needs a fallback never loads it, and it is not part of the
 * bundle whose size and start-up the budget guards. The same manifest hashes are checked either way.
 */
export const artefactsModule: Plugin = {
  name: 'artefacts-module',
  setup(builder) {
    builder.onResolve({ filter: new RegExp(`^\\./${ARTEFACTS_MODULE.replaceAll('.', '\\.')}$`) }, () => ({ path: `./${ARTEFACTS_MODULE}`, external: true }));
    builder.onLoad({ filter: new RegExp(`${ARTEFACT_FILES.replaceAll('.', '\\.').replaceAll(sep, `\\${sep}`)}$`) }, () => ({
      contents: [
        `export const readArtefactFromDisk = async (file) => {`,
        `  const { ARTEFACTS } = await import('./${ARTEFACTS_MODULE}');`,
        `  if (!Object.hasOwn(ARTEFACTS, file)) throw new Error('no bundled artefact ' + file);`,
        `  return new TextEncoder().encode(ARTEFACTS[file]);`,
        `};`,
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/** The source of the artefacts module: every file of the manifest, by its manifest path, as text. */
export const artefactsModuleSource = () => {
  const manifest = JSON.parse(readFileSync(join(ARTEFACT_DIR, 'manifest.json'), 'utf8')) as { entries: { file: string }[] };
  const files = Object.fromEntries(manifest.entries.map(({ file }) => [file, readFileSync(join(ARTEFACT_DIR, file), 'utf8')]));
  return `export const ARTEFACTS = ${JSON.stringify(files)};\n`;
};

const SCHEMA_DIR = fileURLToPath(new URL('../db/schema/', import.meta.url));

/**
 * Our schema modules (db/schema/) only declare tables, enums and relations, but esbuild cannot tell that their
 * top-level `pgTable(...)` calls have no side effects: it kept every schema module an entry reaches, even only
 * through the barrel (db/schema/index.ts). Resolved as free of side effects, a schema module is left out unless
 * something of it is used. With an edge client's relational API given its group's graph (db/relational-graphs.ts)
 * instead of the whole schema, a group carries the tables its code names (14–23 KB minified less per group).
 */
export const schemaWithoutSideEffects: Plugin = {
  name: 'schema-without-side-effects',
  setup(builder) {
    builder.onResolve({ filter: /^\..*\.ts$/ }, (args) => {
      const path = join(args.resolveDir, args.path);
      return args.namespace === 'file' && path.startsWith(SCHEMA_DIR) ? { path, sideEffects: false } : undefined;
    });
  },
};

/** The extension of a bundle's other modules: `.mjs`, which miniflare and wrangler both load as ES modules (`.js` other than the main module is CommonJS to miniflare). */
const CHUNK_EXTENSION = '.mjs';

/** The names of a group's lazily loaded modules beside its bundle (dist/edge/ holds every group's: the group's name keeps them apart). */
export const chunkNamesOf = (group: string) => `${group}.chunk-[hash]`;

/** A module of a bundle besides its main one. */
export interface EdgeChunk {
  file: string;
  bytes: number;
  inputs: Record<string, { bytesInOutput: number }>;
}

/**
 * Bundles one edge entry the way an edge runtime (workerd) loads it: ESM, platform-neutral, the
 * `workerd`/`worker`/`browser` export conditions (postgres.js then speaks over `cloudflare:sockets`).
 * `browser` also applies packages' `browser` file maps, which the AWS SDK needs for its fetch-based
 * runtime (the storage service's S3 backend). Minified, as deployed.
 *
 * Code splitting: what is imported by `import()` (RE2 in core/schemes/patterns.ts, JSON-LD expansion in
 * core/credentials/payload-validation.ts, the QR encoder in core/qr/qr-code.ts, the sanitiser) becomes modules of
 * their own beside the bundle, `<group>.chunk-<hash>.mjs`, which an isolate loads on first use only. Modules that
 * both sides use are in the bundle or in a chunk it imports statically, one instance each (so `instanceof` holds
 * across them). The bundle, `outfile` (`<group>.js`, wrangler's `main`), and the chunks it imports statically are
 * what an isolate parses at start-up and what the size budget guards: `bytes` (and `inputs`, where they come from);
 * `onFirstUse` lists the chunks loaded only by `import()`, `startUp` the static ones.
 */
export const bundleEdgeEntry = async (entry: string, outfile: string, platform: 'neutral' | 'browser' = 'neutral') => {
  const dir = dirname(outfile);
  const group = basename(outfile, '.js');
  const result = await build({
    entryPoints: [{ in: entry, out: group }],
    outdir: dir,
    splitting: true,
    chunkNames: chunkNamesOf(group),
    entryNames: chunkNamesOf(group),
    outExtension: { '.js': CHUNK_EXTENSION },
    bundle: true,
    format: 'esm',
    platform,
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['node:*', 'cloudflare:*'],
    minify: true,
    plugins:
      platform === 'browser'
        ? [awsXmlParserWithoutDom, zodEnglishOnly, zodOpenApiExtendsZodTypeOnly, unusedOnEdge]
        : [zodEnglishOnly, zodOpenApiExtendsZodTypeOnly, openApiWithoutGenerators, unusedOnEdge, schemaWithoutSideEffects, examplesOnlyInDocument, filesInlinedAtBundleTime, sanitiserInline, qrcodeBrowserBuild, jsonLdBrowserFiles, jsonLdExpansionOnly, artefactsModule],
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  const outputs = new Map(Object.entries(result.metafile.outputs).map(([path, output]) => [resolve(path), output]));
  // The main module: the output of the entry point. esbuild names it like a chunk; it is written as `<group>.js`.
  const [mainPath] = [...outputs].find(([, output]) => output.entryPoint !== undefined && resolve(output.entryPoint) === resolve(entry))!;
  const importsOf = (path: string, kind: 'import-statement' | 'dynamic-import') =>
    outputs.get(path)!.imports.filter((i) => i.kind === kind && !i.external).map((i) => resolve(i.path));
  const startUp = new Set([mainPath]);
  for (const path of startUp) for (const imported of importsOf(path, 'import-statement')) startUp.add(imported);
  for (const [path] of outputs) if (importsOf(path, 'import-statement').includes(mainPath) || importsOf(path, 'dynamic-import').includes(mainPath)) throw new Error(`${group}: ${path} imports the main module`);
  // The group's chunks of an earlier build go (their hashes differ): wrangler uploads every file its rules match.
  mkdirSync(dir, { recursive: true });
  for (const stale of readdirSync(dir).filter((f) => f.startsWith(`${group}.chunk-`) && f.endsWith(CHUNK_EXTENSION))) rmSync(join(dir, stale));
  for (const file of result.outputFiles) writeFileSync(resolve(file.path) === mainPath ? outfile : file.path, file.contents);
  // A bundle that may read the bundled artefacts gets their module beside it (the same for every bundle).
  const readsArtefacts = [...outputs.values()].some((output) => output.imports.some((i) => i.path === `./${ARTEFACTS_MODULE}`));
  if (readsArtefacts) writeFileSync(join(dir, ARTEFACTS_MODULE), artefactsModuleSource());
  const chunk = (path: string): EdgeChunk => ({ file: basename(path), bytes: outputs.get(path)!.bytes, inputs: outputs.get(path)!.inputs });
  const staticChunks = [...startUp].filter((p) => p !== mainPath).map(chunk);
  const inputs: Record<string, { bytesInOutput: number }> = {};
  for (const path of startUp) for (const [file, { bytesInOutput }] of Object.entries(outputs.get(path)!.inputs)) inputs[file] = { bytesInOutput: (inputs[file]?.bytesInOutput ?? 0) + bytesInOutput };
  return {
    /** What an isolate parses at start-up: the bundle and the chunks it imports statically. */
    bytes: [...startUp].reduce((sum, path) => sum + outputs.get(path)!.bytes, 0),
    inputs,
    /** The chunks the bundle imports statically (code it shares with a module loaded on first use). */
    startUp: staticChunks,
    /** The modules loaded by `import()` on first use (and the chunks only they import). */
    onFirstUse: [...outputs.keys()].filter((p) => !startUp.has(p)).map(chunk),
    /** Whether it may import the bundled artefacts' module (`ARTEFACTS_MODULE`, beside it). */
    readsArtefacts,
  };
};

/** The package an input file belongs to (`zod`, `@hono/zod-openapi`), or our own top directory (`core/`). */
const packageOf = (file: string) => {
  const parts = file.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return `${parts[0]}/`;
  return parts[at + 1]!.startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1]!;
};

/** Where a bundle's bytes go: bytes in the output per package (or our top directory) and the largest files. */
export const analyzeInputs = (inputs: Record<string, { bytesInOutput: number }>, topFiles = 15) => {
  const byPackage = new Map<string, number>();
  for (const [file, { bytesInOutput }] of Object.entries(inputs)) byPackage.set(packageOf(file), (byPackage.get(packageOf(file)) ?? 0) + bytesInOutput);
  const files = Object.entries(inputs)
    .map(([file, { bytesInOutput }]) => ({ file, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, topFiles);
  return { packages: [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes), files };
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
 * Every edge entry: each resource group with `functions/<group>/edge.ts`, the storage service (the
 * AWS SDK needs `browser` file maps and the DOM-free XML parser, see above) and the VC service. Wrangler deploys our
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
  { group: 'vc', entry: 'vc-service/edge.ts', platform: 'neutral', main: 'dist/edge/vc.js' },
];

/**
 * `npm run build:edge` builds every entry into dist/edge, `npm run build:edge -- <group…>` those groups' alone (each
 * wrangler environment's build step builds its own); `npm run build:edge -- --analyze [group…]` also
 * prints where each bundle's bytes go (per package and the largest input files, from esbuild's metafile), and the
 * same for each module loaded on first use beside it. KB are 1000 bytes, as in the size budgets (test/edge/bundle-size.test.ts).
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const analyze = args.includes('--analyze');
  const only = args.filter((a) => !a.startsWith('--'));
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
  for (const { group, entry, platform } of edgeEntries().filter((e) => only.length === 0 || only.includes(e.group))) {
    const outfile = join('dist', 'edge', `${group}.js`);
    const { bytes, inputs, onFirstUse: chunks } = await bundleEdgeEntry(entry, outfile, platform);
    const gzipped = gzipSync(readFileSync(outfile)).length;
    const lazy = chunks.length === 0 ? '' : `; loaded on first use: ${chunks.length} modules, ${kb(chunks.reduce((sum, c) => sum + c.bytes, 0))}`;
    console.log(`${outfile}: ${kb(bytes)} minified at start-up, ${kb(gzipped)} gzip (the bundle alone)${lazy}`);
    if (!analyze) continue;
    for (const [name, of, top] of [[outfile, inputs, 15] as const, ...chunks.map((c) => [`${c.file} (on first use, ${kb(c.bytes)})`, c.inputs, 5] as const)]) {
      const { packages, files } = analyzeInputs(of, top);
      console.log(`  ${name}:`);
      for (const { name: p, bytes: b } of packages) console.log(`  ${kb(b).padStart(10)}  ${p}`);
      console.log('  largest files:');
      for (const { file, bytes: b } of files) console.log(`  ${kb(b).padStart(10)}  ${file.replace(/^.*node_modules\//, '')}`);
    }
  }
}
