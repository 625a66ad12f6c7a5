import type { Context } from 'hono';
import { takeClientToken } from '../../core/limits/client-rate-limit.ts';
import { clientAddress } from './client-address.ts';
import type { AppEnv } from './env.ts';

/** The 429 `RATE_LIMITED` answer for one kind of request (`what`), with Retry-After in whole seconds. */
export const rateLimited = (c: Context<AppEnv>, what: string, wait: number): Response =>
  c.json({ error: `Too many ${what} requests from this client; retry in ${wait} s`, code: 'RATE_LIMITED' }, 429, { 'retry-after': String(wait) });

/**
 * A per-client request limit for one kind of request (`what`, e.g. "verification" → "Too many
 * verification requests from this client; …"), counted in PostgreSQL so every web process and edge
 * isolate shares it (core/limits/client-rate-limit.ts). `refused` counts one request of this client:
 * undefined while it may proceed, else the 429 `RATE_LIMITED` answer with Retry-After in whole seconds.
 */
export const perClientLimit = (what: string) => ({
  async refused(c: Context<AppEnv>, settings: { ratePerMinute: number }): Promise<Response | undefined> {
    const wait = await takeClientToken(c.get('services').db, what, clientAddress(c), settings.ratePerMinute);
    return wait === 0 ? undefined : rateLimited(c, what, wait);
  },
});
