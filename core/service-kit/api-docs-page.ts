import type { Env, Hono, MiddlewareHandler } from 'hono';
import { PAGE_STYLE, START_SCRIPT } from './api-docs-own-files.ts';

/**
 * The Swagger UI release the explorer loads (swagger-ui-dist, pinned in package.json). It is in the assets'
 * path, so a browser may keep them for good; the Node loader refuses to start with any other installed version.
 */
export const SWAGGER_UI_VERSION = '5.35.0';

export const API_DOCS_PATH = '/api-docs';
export const SWAGGER_UI_ASSETS_PATH = `${API_DOCS_PATH}/swagger-ui-${SWAGGER_UI_VERSION}`;

/** The two files of the package the page loads, under SWAGGER_UI_ASSETS_PATH. */
export const SWAGGER_UI_FILES = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
} as const;
export type SwaggerUiFile = keyof typeof SWAGGER_UI_FILES;

/**
 * Where the package's files come from: read from node_modules by the Node web process
 * (swagger-ui-files.ts); an edge deployment passes none and serves them as static assets at the same path.
 */
export type SwaggerUiFiles = (name: SwaggerUiFile) => Promise<Uint8Array>;

/**
 * Same origin only, no inline script and no eval. `style-src 'unsafe-inline'` because Swagger UI's React
 * components set `style` attributes; `img-src data:` for the icons its stylesheet embeds. "Try it out" calls
 * the API on this origin (`connect-src 'self'`), with the session cookie the browser already holds.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on the explorer and every file of it, from the Node process and from static hosting alike. */
export const DOCS_HEADERS = {
  'Content-Security-Policy': DOCS_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
} as const;

/** Swagger UI's files never change under their versioned path; the explorer's own files are revalidated. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';

const docsHeaders = (cacheControl: string): MiddlewareHandler => async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(DOCS_HEADERS)) c.header(name, value);
  c.header('Cache-Control', cacheControl);
};

/** The explorer's page, titled for the API it documents (the title is ours, never a request's). */
const page = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${SWAGGER_UI_ASSETS_PATH}/swagger-ui.css">
<link rel="stylesheet" href="${API_DOCS_PATH}/page.css">
</head>
<body>
<main id="swagger-ui"></main>
<script src="${SWAGGER_UI_ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_DOCS_PATH}/start.js"></script>
</body>
</html>
`;

/**
 * The explorer's own files by path (the page, its start script and its stylesheet): no inline script or style.
 * Shared by the main API and the storage service; each names its own page.
 */
export const docsOwnFiles = (title: string) => ({
  [API_DOCS_PATH]: { body: page(title), contentType: 'text/html; charset=utf-8' },
  [`${API_DOCS_PATH}/start.js`]: { body: START_SCRIPT, contentType: 'text/javascript; charset=utf-8' },
  [`${API_DOCS_PATH}/page.css`]: { body: PAGE_STYLE, contentType: 'text/css; charset=utf-8' },
});

/**
 * GET /api-docs (the explorer), its own start.js and page.css and, when `files` is given, Swagger UI's files.
 * Web-standard only. The document itself is `/api-docs/openapi.json`, which the caller serves. Static hosting
 * serves the same files with the same headers instead (scripts/api-docs-static.ts).
 */
export const registerApiDocsPage = <E extends Env>(app: Hono<E>, options: { title: string; files?: SwaggerUiFiles }) => {
  const { title, files } = options;
  for (const [path, file] of Object.entries(docsOwnFiles(title))) {
    app.get(path, docsHeaders(CACHE_REVALIDATE), (c) => c.body(file.body, 200, { 'Content-Type': file.contentType }));
  }
  if (!files) return;
  app.get(`${SWAGGER_UI_ASSETS_PATH}/:name`, docsHeaders(CACHE_IMMUTABLE), async (c) => {
    const name = c.req.param('name');
    if (!Object.hasOwn(SWAGGER_UI_FILES, name)) return c.text('Not found', 404);
    const body = await files(name as SwaggerUiFile);
    return c.body(body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': SWAGGER_UI_FILES[name as SwaggerUiFile] });
  });
};
