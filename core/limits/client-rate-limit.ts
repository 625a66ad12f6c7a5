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
 * function `limits_take_client_token` (migrations 0019, 0021) reads, refills, takes and writes the bucket
 * under its row lock, and nothing else: idle buckets are forgotten by the worker (forgetIdleBuckets). `scope` keeps limits
 * apart (the verify route and the verify page's template each have their own). Returns 0 when the
 * request may proceed, else the whole seconds until the client may try again.
 */
export const takeClientToken = async (db: Queryable, scope: string, client: string, perMinute: number): Promise<number> => {
  const [bucket] = await db.execute<TakenToken>(sql`select tokens, granted from limits_take_client_token(${scope}, ${client}, ${perMinute}::float8)`);
  return secondsUntilToken(bucket!, perMinute);
};

/**
 * The worker's upkeep (on `credentials.reconcile-batches`): forgets buckets idle for 2 minutes, which are full again,
 * so no answer changes (the client's next request starts a bucket afresh). `limits_forget_idle_buckets`
 * (migration 0021) forgets at most `perStep` of them, oldest first, in a statement of its own; steps follow
 * while one finds a full step's worth and the worker is not stopping. Admission never deletes, so a request
 * never pays for this. Returns how many were forgotten.
 */
export const forgetIdleBuckets = async (db: Queryable, perStep: number, stopping?: AbortSignal): Promise<number> => {
  let forgotten = 0;
  for (;;) {
    const [step] = await db.execute<{ forgotten: number }>(sql`select limits_forget_idle_buckets(${perStep}::integer) as forgotten`);
    forgotten += step!.forgotten;
    if (step!.forgotten < perStep || stopping?.aborted) return forgotten;
  }
};
