import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../platform/env.ts';
import { perClientLimit } from '../platform/per-client-limit.ts';

/** Counted apart from the verify route's own limit (a page view uses one of each). */
const templateLimit = perClientLimit('template');

/**
 * GET /verify/template answers strangers with a database lookup and a storage read: VERIFY_RATE_LIMIT_PER_MINUTE
 * requests per client address, then 429 RATE_LIMITED with Retry-After in seconds.
 */
export const templateRateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const refused = await templateLimit.refused(c, c.get('services').settings.verifyBounds);
  if (refused) return refused;
  await next();
});
