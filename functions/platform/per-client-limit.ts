import type { Context } from 'hono';
import { clientAddress } from './client-address.ts';
import type { ClientRateLimiter } from './client-rate-limiter.ts';

/**
 * Counts one request of this client (its socket's peer address) against `limiter`: undefined while it
 * may proceed, else the 429 `RATE_LIMITED` answer with Retry-After in whole seconds. `what` names the
 * requests in the message, e.g. "verification" → "Too many verification requests from this client; …".
 */
export const refusedPastClientLimit = (c: Context, limiter: ClientRateLimiter, what: string): Response | undefined => {
  const wait = limiter.take(clientAddress(c));
  if (wait === 0) return undefined;
  return c.json({ error: `Too many ${what} requests from this client; retry in ${wait} s`, code: 'RATE_LIMITED' }, 429, { 'retry-after': String(wait) });
};
