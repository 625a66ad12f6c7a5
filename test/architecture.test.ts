import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers: functions/, consumers/, cli/ → core/ → db/. The services beside the product
 * (storage-service/, vc-service/) may use only the leaf utilities of core/ listed here.
 */
const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '..'));
const SERVICE_FOLDERS = ['storage-service/', 'vc-service/'];
const CORE_LEAF_UTILITIES = [
  'core/logging/logger.ts',
  'core/settings/env-readers.ts',
  'core/errors.ts',
  'core/service-kit/worker-supervisor.ts',
  'core/service-kit/api-key.ts',
  'core/service-kit/public-address.ts',
  'core/service-kit/deployment.ts',
  // /api-docs: the explorer page under its policy, and Swagger UI's files from the pinned package (Node entries).
  'core/service-kit/api-docs-page.ts',
  'core/service-kit/api-docs-own-files.ts',
  'core/service-kit/swagger-ui-files.ts',
  // The guarded outbound fetch (the VC service reads other issuers' status lists through it).
  'core/net/guarded-fetch.ts',
  'core/net/edge-guarded-fetch.ts',
  'core/net/fetcher.ts',
  'core/net/public-url.ts',
  'core/service-kit/metrics-endpoint.ts',
  'core/service-kit/tracing.ts',
];
const PRODUCT_FOLDERS = ['functions/', 'consumers/', 'cli/', 'core/', 'db/'];
/** scripts/ (the local stack) may start the separate services; test/ may reach everything. */
const PROJECT_FOLDERS = [...PRODUCT_FOLDERS, 'scripts/', 'test/', ...SERVICE_FOLDERS];

interface SourceFile {
  /** Repository-relative path, `/`-separated. */
  path: string;
  text: string;
}

const isTestCode = (path: string) => /\.test\.ts$/.test(path) || /(^|\/)test\//.test(path);

/** Why `from` must not import `to`, or undefined when the arrow is allowed. */
export const forbiddenArrow = (from: string, to: string): string | undefined => {
  const own = (folder: string) => from.startsWith(folder) && to.startsWith(folder);
  if (from.startsWith('db/') && !to.startsWith('db/')) return 'db/ imports only db/';
  if (from.startsWith('core/') && /^(functions|consumers|cli)\//.test(to)) return 'core/ must not import functions/, consumers/ or cli/';
  const service = SERVICE_FOLDERS.find((folder) => from.startsWith(folder));
  if (service && !own(service) && !CORE_LEAF_UTILITIES.includes(to) && !(isTestCode(from) && to.startsWith('test/'))) {
    return `${service} may use only ${CORE_LEAF_UTILITIES.join(', ')}`;
  }
  const product = PRODUCT_FOLDERS.some((folder) => from.startsWith(folder));
  if (product && SERVICE_FOLDERS.some((folder) => to.startsWith(folder)) && !isTestCode(from)) {
    return 'the product must not import a separate service';
  }
  return undefined;
};

const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** Every forbidden import among `files`, as `from → to (rule)`. */
export const forbiddenImports = (files: SourceFile[]): string[] =>
  files.flatMap(({ path, text }) =>
    [...text.matchAll(SPECIFIERS)]
      .map((match) => match[1]!)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => normalize(join(dirname(path), specifier)).split('\\').join('/'))
      .flatMap((target) => {
        const rule = forbiddenArrow(path, target);
        return rule ? [`${path} → ${target} (${rule})`] : [];
      }),
  );

const sourceFiles = async (folder: string): Promise<SourceFile[]> => {
  const entries = await readdir(join(ROOT, folder), { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !join(e.parentPath, e.name).includes('node_modules'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'));
  return Promise.all(paths.map(async (path) => ({ path, text: await readFile(join(ROOT, path), 'utf8') })));
};

describe('layer rules', () => {
  it('recognises each forbidden arrow (the scan can fail)', () => {
    const files: SourceFile[] = [
      { path: 'db/client.ts', text: "import { x } from '../core/errors.ts';" },
      { path: 'db/schema/a.ts', text: "export * from '../../functions/app.ts';" },
      { path: 'core/a/b.ts', text: "const m = await import('../../functions/platform/env.ts');" },
      { path: 'core/a/c.ts', text: "import type { Services } from '../../consumers/worker.ts';" },
      { path: 'storage-service/app.ts', text: "import { SecretBox } from '../core/crypto/secret-box.ts';" },
      { path: 'vc-service/app.ts', text: "import { connectDatabase } from '../db/client.ts';" },
      { path: 'functions/app.ts', text: "import { x } from '../storage-service/app.ts';" },
    ];
    expect(forbiddenImports(files)).toHaveLength(files.length);
  });

  it('allows the intended arrows', () => {
    const files: SourceFile[] = [
      { path: 'functions/app.ts', text: "import { a } from '../core/errors.ts';\nimport { b } from '../db/client.ts';" },
      { path: 'core/a/b.ts', text: "import { c } from '../../db/client.ts';\nimport { d } from 'drizzle-orm';" },
      { path: 'db/schema/a.ts', text: "import { e } from './b.ts';" },
      { path: 'storage-service/app.ts', text: "import { f } from '../core/logging/logger.ts';\nimport { g } from './errors.ts';" },
      { path: 'storage-service/app.test.ts', text: "import { h } from '../test/rig/program.ts';" },
    ];
    expect(forbiddenImports(files)).toEqual([]);
  });

  it('holds for the repository', async () => {
    const folders = PROJECT_FOLDERS.filter((folder) => existsSync(join(ROOT, folder)));
    expect(folders).toEqual(expect.arrayContaining(['functions/', 'core/', 'db/', 'storage-service/']));
    const files = (await Promise.all(folders.map(sourceFiles))).flat();
    expect(files.length).toBeGreaterThan(100);
    expect(forbiddenImports(files)).toEqual([]);
  });
});
