import { createMiddleware } from 'hono/factory';
import { badRequest } from '../../core/errors.ts';
import type { AppEnv } from './env.ts';

/** Every query parameter of this API is single-valued: a repeat is a 400 naming the parameter. */
export const rejectRepeatedQuery = createMiddleware<AppEnv>(async (c, next) => {
  const seen = new Set<string>();
  for (const key of new URL(c.req.url).searchParams.keys()) {
    if (seen.has(key)) throw badRequest(`${key}: query parameter must not be repeated`);
    seen.add(key);
  }
  await next();
});
