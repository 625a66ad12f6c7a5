import { createMiddleware } from 'hono/factory';
import type { VerifyBounds } from '../../core/settings/web-settings.ts';
import { ClientRateLimiter } from '../platform/client-rate-limiter.ts';
import type { AppEnv } from '../platform/env.ts';
import { refusedPastClientLimit } from '../platform/per-client-limit.ts';

/** One limiter per process settings (per test app, per edge isolate), apart from the verify route's own. */
const limiters = new WeakMap<VerifyBounds, ClientRateLimiter>();

/**
 * GET /verify/template answers strangers with a database lookup and a storage read: VERIFY_RATE_LIMIT_PER_MINUTE
 * requests per client address, counted apart from the verify route's (a page view uses one of each), then
 * 429 RATE_LIMITED with Retry-After in seconds.
 */
export const templateRateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const bounds = c.get('services').settings.verifyBounds;
  let limiter = limiters.get(bounds);
  if (!limiter) {
    limiter = new ClientRateLimiter(bounds.ratePerMinute);
    limiters.set(bounds, limiter);
  }
  const refused = refusedPastClientLimit(c, limiter, 'template');
  if (refused) return refused;
  await next();
});
