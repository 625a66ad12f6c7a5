import { Hono } from 'hono';
import { etag } from 'hono/etag';
import type { AppEnv } from '../platform/env.ts';
import { PAGE_ASSETS } from './page-assets.ts';
import { registerGetTemplate } from './get-template.ts';
import { pageHeaders } from './page-headers.ts';
import { PAGE_HTML } from './page-html.ts';

/**
 * /verify: the public verification page (no session or token) and its own static assets. The page
 * is static; everything it shows comes from POST /api/v1/credentials/verify, called from the browser,
 * and from /verify/template for a render template this service published.
 */
export const verifyPageApp = new Hono<AppEnv>();

verifyPageApp.get('/', pageHeaders('no-store'), (c) => c.html(PAGE_HTML));
registerGetTemplate(verifyPageApp);

verifyPageApp.get('/:asset', pageHeaders('no-cache'), etag(), (c) => {
  const asset = PAGE_ASSETS.get(c.req.param('asset'));
  if (!asset) return c.text('Not found', 404);
  return c.body(asset.body, 200, { 'Content-Type': asset.contentType });
});
