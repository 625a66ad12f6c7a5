import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { registerGetAsset } from './get-asset.ts';
import { registerGetPage } from './get-page.ts';
import { registerGetTemplate } from './get-template.ts';

/**
 * /verify: the public verification page (no session or token) and its own static assets. The page
 * is static; everything it shows comes from POST /api/v1/credentials/verify, called from the browser,
 * and from /verify/template for a render template this service published.
 */
export const verifyPageApp = new Hono<AppEnv>();
registerGetPage(verifyPageApp);
registerGetTemplate(verifyPageApp);
// Last: its `/:asset` would otherwise take `template`.
registerGetAsset(verifyPageApp);
