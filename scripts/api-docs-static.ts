import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildApp } from '../functions/app.ts';
import type { Services } from '../functions/platform/env.ts';
import { API_TITLE, apiDocumentFields } from '../functions/platform/openapi-document.ts';
import {
  API_DOCS_PATH,
  CACHE_IMMUTABLE,
  CACHE_REVALIDATE,
  DOCS_HEADERS,
  SWAGGER_UI_ASSETS_PATH,
  SWAGGER_UI_FILES,
  type SwaggerUiFile,
  docsOwnFiles,
} from '../core/service-kit/api-docs-page.ts';
import { swaggerUiFilesFromPackage } from '../core/service-kit/swagger-ui-files.ts';

/**
 * /api-docs for an edge deployment: the explorer, its document and Swagger UI's files as static assets (Workers
 * static assets, or any static host), with a `_headers` file giving each path the headers the Node process sends.
 * No worker runs for them, and no group's bundle carries Swagger UI (1.7 MB) or the document's generator.
 * `/api-docs` is `api-docs.html` (static hosts serve `/x` from `x.html`).
 */
export const STATIC_DOCUMENT_PATH = `${API_DOCS_PATH}/openapi.json`;

const fileOf = (path: string) => (path === API_DOCS_PATH ? `${API_DOCS_PATH}.html` : path).slice(1);

/** The OpenAPI document as /api-docs/openapi.json serves it for a deployment at `appUrl`. */
export const documentFor = async (appUrl: string): Promise<string> => {
  const app = buildApp((c, next) => {
    c.set('services', { settings: { appUrl } } as Services);
    return next();
  });
  return (await app.request(STATIC_DOCUMENT_PATH)).text();
};

const headerRule = (path: string, cacheControl: string) =>
  [path, ...Object.entries({ ...DOCS_HEADERS, 'Cache-Control': cacheControl }).map(([name, value]) => `  ${name}: ${value}`)].join('\n');

/** Writes the static /api-docs into `outDir`; returns the paths written, relative to it. */
export const writeApiDocsStatic = async (outDir: string, appUrl: string): Promise<string[]> => {
  const swaggerUi = swaggerUiFilesFromPackage();
  const ownFiles = docsOwnFiles(API_TITLE);
  const files = new Map<string, string | Uint8Array>([
    ...Object.entries(ownFiles).map(([path, file]) => [fileOf(path), file.body] as const),
    [fileOf(STATIC_DOCUMENT_PATH), await documentFor(appUrl)],
  ]);
  for (const name of Object.keys(SWAGGER_UI_FILES) as SwaggerUiFile[]) files.set(fileOf(`${SWAGGER_UI_ASSETS_PATH}/${name}`), await swaggerUi(name));
  const revalidated = [...Object.keys(ownFiles), STATIC_DOCUMENT_PATH];
  files.set('_headers', [...revalidated.map((path) => headerRule(path, CACHE_REVALIDATE)), headerRule(`${SWAGGER_UI_ASSETS_PATH}/*`, CACHE_IMMUTABLE)].join('\n') + '\n');
  for (const [file, body] of files) {
    await mkdir(dirname(join(outDir, file)), { recursive: true });
    await writeFile(join(outDir, file), body);
  }
  return [...files.keys()];
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const appUrl = process.env.RI_APP_URL;
  if (!appUrl) throw new Error('RI_APP_URL: the deployment’s public origin (the document’s servers)');
  const outDir = process.argv[2] ?? 'dist/static';
  const written = await writeApiDocsStatic(outDir, appUrl);
  console.log(`api-docs: ${written.length} files in ${outDir}`);
}
