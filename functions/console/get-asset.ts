import type { Hono } from 'hono';
import type { ConsoleEnv } from './console-env.ts';
import { CONSOLE_ASSETS } from './console-assets.ts';

/** GET /console/assets/<name>: the stylesheet and htmx, named by their content (a fixed list; anything else is 404). */
export const registerGetAsset = (app: Hono<ConsoleEnv>) =>
  app.get('/assets/:name', (c) => {
    const asset = CONSOLE_ASSETS.get(c.req.path);
    if (!asset) return c.text('Not found', 404);
    return c.body(asset.body, 200, { 'Content-Type': asset.contentType, 'Cache-Control': 'public, max-age=31536000, immutable' });
  });
