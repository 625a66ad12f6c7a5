import { createMiddleware } from 'hono/factory';
import type { VerifyBounds } from '../../core/settings/web-settings.ts';
import { ConcurrencyGate } from '../platform/concurrency-gate.ts';
import type { AppEnv } from '../platform/env.ts';
import { perClientLimit } from '../platform/per-client-limit.ts';

/** Seconds a refused caller is told to wait when every verification slot is taken. */
const BUSY_RETRY_SECONDS = 1;

const verificationLimit = perClientLimit('verification');

/** One gate per process settings (per test app, per edge isolate). */
const gates = new WeakMap<VerifyBounds, ConcurrencyGate>();
const gateFor = (settings: VerifyBounds) => {
  let gate = gates.get(settings);
  if (!gate) gates.set(settings, (gate = new ConcurrencyGate(settings.maxConcurrency)));
  return gate;
};

/**
 * The public verify route fetches URLs for strangers: VERIFY_RATE_LIMIT_PER_MINUTE per client
 * (every request counts, valid or not) and VERIFY_MAX_CONCURRENCY verifications at once in this
 * process; beyond either, 429 with Retry-After in seconds.
 */
export const verifyBounds = createMiddleware<AppEnv>(async (c, next) => {
  const settings = c.get('services').settings.verifyBounds;
  const refused = verificationLimit.refused(c, settings);
  if (refused) return refused;
  const gate = gateFor(settings);
  if (!gate.tryEnter()) {
    return c.json({ error: 'Too many verifications in progress; retry shortly', code: 'VERIFY_BUSY' }, 429, { 'retry-after': String(BUSY_RETRY_SECONDS) });
  }
  try {
    await next();
  } finally {
    gate.leave();
  }
});
