import { createMiddleware } from 'hono/factory';
import { badRequest } from '../../core/errors.ts';
import type { AppEnv } from './env.ts';

/** Every query parameter of this API is single-valued: a repeat is a 400 naming the parameter. */
export const rejectRepeatedQuery = createMiddleware<AppEnv>(async (c, next) => {
  // Only the query string is parsed (no whole-URL parse per request), and only when there is one.
  const url = c.req.url;
  const start = url.indexOf('?');
  if (start !== -1) {
    const end = url.indexOf('#', start);
    const seen = new Set<string>();
    for (const key of new URLSearchParams(url.slice(start + 1, end === -1 ? undefined : end)).keys()) {
      if (seen.has(key)) throw badRequest(`${key}: query parameter must not be repeated`);
      seen.add(key);
    }
  }
  await next();
});
