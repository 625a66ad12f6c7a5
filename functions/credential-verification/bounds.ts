import { createMiddleware } from 'hono/factory';
import { enterConcurrency, leaveConcurrency } from '../../core/limits/concurrency-lease.ts';
import type { AppEnv } from '../platform/env.ts';
import { perClientLimit } from '../platform/per-client-limit.ts';

/** Seconds a refused caller is told to wait when every verification slot is taken. */
const BUSY_RETRY_SECONDS = 1;

/** A verification's slot is given back when it ends; should its process die first, after this long. */
const LEASE_SECONDS = 120;

const verificationLimit = perClientLimit('verification');

/**
 * The public verify route fetches URLs for strangers: VERIFY_RATE_LIMIT_PER_MINUTE per client
 * (every request counts, valid or not) and VERIFY_MAX_CONCURRENCY verifications at once across every
 * web process and edge isolate (both kept in PostgreSQL); beyond either, 429 with Retry-After in seconds.
 */
export const verifyBounds = createMiddleware<AppEnv>(async (c, next) => {
  const { db, settings } = c.get('services');
  const refused = await verificationLimit.refused(c, settings.verifyBounds);
  if (refused) return refused;
  const lease = await enterConcurrency(db, 'verification', settings.verifyBounds.maxConcurrency, LEASE_SECONDS);
  if (!lease) {
    return c.json({ error: 'Too many verifications in progress; retry shortly', code: 'VERIFY_BUSY' }, 429, { 'retry-after': String(BUSY_RETRY_SECONDS) });
  }
  try {
    await next();
  } finally {
    await leaveConcurrency(db, lease);
  }
});
