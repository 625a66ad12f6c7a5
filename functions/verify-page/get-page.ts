import type { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { pageHeaders } from './page-headers.ts';
import { PAGE_HTML } from './page-html.ts';

/** GET /verify: the page itself, never stored by any cache (its address may carry a decryption key). */
export const registerGetPage = (app: Hono<AppEnv>) => app.get('/', pageHeaders('no-store'), (c) => c.html(PAGE_HTML));
