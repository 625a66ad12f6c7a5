import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';

/** One in this many counted requests also forgets buckets that have been idle long enough to be full again. */
const SWEEP_ONE_IN = 64;

/**
 * Requests per client per minute, as a token bucket kept in PostgreSQL (`client_rate_buckets`), so every
 * web process and edge isolate counts against the same allowance: a full minute's allowance at first,
 * refilled continuously, so a steady client at the limit is never refused and a burst is. One statement
 * reads, refills, takes and writes the bucket under its row lock. `scope` keeps limits apart (the verify
 * route and the verify page's template each have their own). Returns 0 when the request may proceed,
 * else the whole seconds until the client may try again.
 */
export const takeClientToken = async (db: Queryable, scope: string, client: string, perMinute: number): Promise<number> => {
  const perSecond = perMinute / 60;
  const refilled = sql`least(${perMinute}::float8, b.tokens + greatest(0, extract(epoch from now() - b.updated_at)) * ${perSecond}::float8)`;
  const [bucket] = await db.execute<{ tokens: number; granted: boolean }>(sql`
    insert into client_rate_buckets as b (scope, client, tokens, granted, updated_at)
    values (${scope}, ${client}, ${perMinute}::float8 - 1, true, now())
    on conflict (scope, client) do update set
      tokens = ${refilled} - case when ${refilled} >= 1 then 1 else 0 end,
      granted = ${refilled} >= 1,
      updated_at = now()
    returning tokens, granted`);
  // A bucket idle for a minute is full again: forgetting it changes nothing for its client.
  if (Math.random() * SWEEP_ONE_IN < 1) await db.execute(sql`delete from client_rate_buckets where updated_at < now() - interval '2 minutes'`);
  if (bucket!.granted) return 0;
  return Math.max(1, Math.ceil((1 - bucket!.tokens) / perSecond));
};
