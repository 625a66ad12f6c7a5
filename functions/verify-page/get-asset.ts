import type { Hono } from 'hono';
import { etag } from 'hono/etag';
import type { AppEnv } from '../platform/env.ts';
import { PAGE_ASSETS } from './page-assets.ts';
import { pageHeaders } from './page-headers.ts';

/** GET /verify/<name>: one of the page's own scripts and styles (a fixed list; anything else is 404). */
export const registerGetAsset = (app: Hono<AppEnv>) =>
  app.get('/:asset', pageHeaders('no-cache'), etag(), (c) => {
    const asset = PAGE_ASSETS.get(c.req.param('asset'));
    if (!asset) return c.text('Not found', 404);
    return c.body(asset.body, 200, { 'Content-Type': asset.contentType });
  });
