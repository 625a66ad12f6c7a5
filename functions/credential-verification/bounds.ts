import { createMiddleware } from 'hono/factory';
import { leaveConcurrency } from '../../core/limits/concurrency-lease.ts';
import { admitVerification } from '../../core/verification/verification-admission.ts';
import { clientAddress } from '../platform/client-address.ts';
import type { AppEnv } from '../platform/env.ts';
import { rateLimited } from '../platform/per-client-limit.ts';

/** The rate limit's scope and the word its 429 uses ("Too many verification requests …"). */
const RATE_SCOPE = 'verification';

/** The concurrency lease's scope. */
const LEASE_SCOPE = 'verification';

/** Seconds a refused caller is told to wait when every verification slot is taken. */
const BUSY_RETRY_SECONDS = 1;

/** A verification's slot is given back when it ends; should its process die first, after this long. */
const LEASE_SECONDS = 120;

/**
 * The public verify route fetches URLs for strangers: VERIFY_RATE_LIMIT_PER_MINUTE per client
 * (every request counts, valid or not) and VERIFY_MAX_CONCURRENCY verifications at once across every
 * web process and edge isolate (both kept in PostgreSQL, checked together in one round trip, which
 * also reads the system VC instance for an admitted request); beyond either, 429 with Retry-After in seconds.
 */
export const verifyBounds = createMiddleware<AppEnv>(async (c, next) => {
  const { db, settings } = c.get('services');
  const { admission, systemVc } = await admitVerification(db, {
    rate: { scope: RATE_SCOPE, client: clientAddress(c), perMinute: settings.verifyBounds.ratePerMinute },
    lease: { scope: LEASE_SCOPE, limit: settings.verifyBounds.maxConcurrency, seconds: LEASE_SECONDS },
  });
  if (!admission.admitted) {
    if (!admission.busy) return rateLimited(c, RATE_SCOPE, admission.retryAfterSeconds);
    return c.json({ error: 'Too many verifications in progress; retry shortly', code: 'VERIFY_BUSY' }, 429, { 'retry-after': String(BUSY_RETRY_SECONDS) });
  }
  c.set('admittedSystemVc', { instance: systemVc });
  try {
    await next();
  } finally {
    await leaveConcurrency(db, admission.lease);
  }
});
