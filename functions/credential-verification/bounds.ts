import { createMiddleware } from 'hono/factory';
import type { VerifyBounds } from '../../core/settings/web-settings.ts';
import { ClientRateLimiter } from '../platform/client-rate-limiter.ts';
import { ConcurrencyGate } from '../platform/concurrency-gate.ts';
import type { AppEnv } from '../platform/env.ts';
import { refusedPastClientLimit } from '../platform/per-client-limit.ts';

/** Seconds a refused caller is told to wait when every verification slot is taken. */
const BUSY_RETRY_SECONDS = 1;

/** One limiter and one gate per process settings (per test app, per edge isolate). */
const boundsBySettings = new WeakMap<VerifyBounds, { limiter: ClientRateLimiter; gate: ConcurrencyGate }>();
const boundsFor = (settings: VerifyBounds) => {
  let bounds = boundsBySettings.get(settings);
  if (!bounds) {
    bounds = { limiter: new ClientRateLimiter(settings.ratePerMinute), gate: new ConcurrencyGate(settings.maxConcurrency) };
    boundsBySettings.set(settings, bounds);
  }
  return bounds;
};

/**
 * The public verify route fetches URLs for strangers: VERIFY_RATE_LIMIT_PER_MINUTE per client
 * (every request counts, valid or not) and VERIFY_MAX_CONCURRENCY verifications at once in this
 * process; beyond either, 429 with Retry-After in seconds.
 */
export const verifyBounds = createMiddleware<AppEnv>(async (c, next) => {
  const { limiter, gate } = boundsFor(c.get('services').settings.verifyBounds);
  const refused = refusedPastClientLimit(c, limiter, 'verification');
  if (refused) return refused;
  if (!gate.tryEnter()) {
    return c.json({ error: 'Too many verifications in progress; retry shortly', code: 'VERIFY_BUSY' }, 429, { 'retry-after': String(BUSY_RETRY_SECONDS) });
  }
  try {
    await next();
  } finally {
    gate.leave();
  }
});
