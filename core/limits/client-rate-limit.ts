import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';

/** A bucket as one request left it (`limits_take_client_token`'s answer). */
export type TakenToken = {
  tokens: number;
  granted: boolean;
};

/** 0 when the request was granted, else the whole seconds until one token is back (at least 1). */
export const secondsUntilToken = ({ tokens, granted }: TakenToken, perMinute: number): number =>
  granted ? 0 : Math.max(1, Math.ceil((1 - tokens) / (perMinute / 60)));

/**
 * Requests per client per minute, as a token bucket kept in PostgreSQL (`client_rate_buckets`), so every
 * web process and edge isolate counts against the same allowance: a full minute's allowance at first,
 * refilled continuously, so a steady client at the limit is never refused and a burst is. The SQL
 * function `limits_take_client_token` (migration 0019) reads, refills, takes and writes the bucket under
 * its row lock, and now and then forgets buckets idle long enough to be full again. `scope` keeps limits
 * apart (the verify route and the verify page's template each have their own). Returns 0 when the
 * request may proceed, else the whole seconds until the client may try again.
 */
export const takeClientToken = async (db: Queryable, scope: string, client: string, perMinute: number): Promise<number> => {
  const [bucket] = await db.execute<TakenToken>(sql`select tokens, granted from limits_take_client_token(${scope}, ${client}, ${perMinute}::float8)`);
  return secondsUntilToken(bucket!, perMinute);
};
