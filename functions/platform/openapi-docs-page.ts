import type { Env, Hono, MiddlewareHandler } from 'hono';
import { PAGE_STYLE, START_SCRIPT } from './openapi-docs-own-files.ts';

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
 * (openapi-ui-assets.ts); an edge deployment passes none and serves them as static assets at the same path.
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

const docsHeaders = (cacheControl: string): MiddlewareHandler => async (c, next) => {
  await next();
  c.header('Content-Security-Policy', DOCS_CSP);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
  c.header('Cross-Origin-Opener-Policy', 'same-origin');
  c.header('Cache-Control', cacheControl);
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Credential Support Service API</title>
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
 * GET /api-docs (the explorer), its own /api-docs/start.js and page.css and, when `files` is given, Swagger UI's own files.
 * Web-standard only, so an edge entry can serve it as it is. The document itself is `/api-docs/openapi.json`.
 */
export const registerApiDocsPage = <E extends Env>(app: Hono<E>, files?: SwaggerUiFiles) => {
  app.get(API_DOCS_PATH, docsHeaders('no-cache'), (c) => c.html(PAGE));
  app.get(`${API_DOCS_PATH}/start.js`, docsHeaders('no-cache'), (c) =>
    c.body(START_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }),
  );
  app.get(`${API_DOCS_PATH}/page.css`, docsHeaders('no-cache'), (c) =>
    c.body(PAGE_STYLE, 200, { 'Content-Type': 'text/css; charset=utf-8' }),
  );
  if (!files) return;
  app.get(`${SWAGGER_UI_ASSETS_PATH}/:name`, docsHeaders('public, max-age=31536000, immutable'), async (c) => {
    const name = c.req.param('name');
    if (!Object.hasOwn(SWAGGER_UI_FILES, name)) return c.text('Not found', 404);
    const body = await files(name as SwaggerUiFile);
    return c.body(body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': SWAGGER_UI_FILES[name as SwaggerUiFile] });
  });
};
