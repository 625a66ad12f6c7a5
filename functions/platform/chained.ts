import type { Context, MiddlewareHandler, Next } from 'hono';
import type { AppEnv } from './env.ts';

/**
 * A middleware as the `next` of the one before it: a response it returns becomes the context's, as
 * Hono's compose does. A middleware may also return what `next()` resolved to (Hono's context, not a
 * response), which is left alone.
 */
export const chained =
  (c: Context<AppEnv>, middleware: MiddlewareHandler<AppEnv>, next: Next): Next =>
  () =>
    middleware(c, next).then((response) => {
      if (response instanceof Response) c.res = response;
    });
