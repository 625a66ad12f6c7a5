import type { Context } from 'hono';
import { clientAddress } from './client-address.ts';
import { ClientRateLimiter } from './client-rate-limiter.ts';

/**
 * A per-client request limit for one kind of request (`what`, e.g. "verification" → "Too many
 * verification requests from this client; …"), with its own count per settings object it is given
 * (per test app, per edge isolate). `refused` counts one request of this client (its socket's peer
 * address): undefined while it may proceed, else the 429 `RATE_LIMITED` answer with Retry-After in
 * whole seconds.
 */
export const perClientLimit = (what: string) => {
  const limiters = new WeakMap<object, ClientRateLimiter>();
  return {
    refused(c: Context, settings: { ratePerMinute: number }): Response | undefined {
      let limiter = limiters.get(settings);
      if (!limiter) limiters.set(settings, (limiter = new ClientRateLimiter(settings.ratePerMinute)));
      const wait = limiter.take(clientAddress(c));
      if (wait === 0) return undefined;
      return c.json({ error: `Too many ${what} requests from this client; retry in ${wait} s`, code: 'RATE_LIMITED' }, 429, { 'retry-after': String(wait) });
    },
  };
};
