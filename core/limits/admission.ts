import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { secondsUntilToken } from './client-rate-limit.ts';

export interface AdmissionLimits {
  /** The per-client token bucket (client-rate-limit.ts): every request counts. */
  rate: { scope: string; client: string; perMinute: number };
  /** The concurrency lease (concurrency-lease.ts), taken only when the bucket lets the request through. */
  lease: { scope: string; limit: number; seconds: number };
}

/** Let in with a lease to leave with (leaveConcurrency), or refused by the client's rate or by every slot taken. */
export type Admission = { admitted: true; lease: string } | { admitted: false; retryAfterSeconds: number; busy: false } | { admitted: false; busy: true };

/**
 * A request's admission in one round trip: `limits_admit` (migration 0019) takes the client's token
 * and, when granted, enters the concurrency scope, in one statement with the very rules of
 * takeClientToken and enterConcurrency (it calls their SQL functions).
 */
export const admit = async (db: Queryable, { rate, lease }: AdmissionLimits): Promise<Admission> => {
  const [row] = await db.execute<{ tokens: number; granted: boolean; lease: string | null }>(
    sql`select tokens, granted, lease from limits_admit(${rate.scope}, ${rate.client}, ${rate.perMinute}::float8, ${lease.scope}, ${lease.limit}::integer, ${lease.seconds}::float8)`,
  );
  if (!row!.granted) return { admitted: false, busy: false, retryAfterSeconds: secondsUntilToken(row!, rate.perMinute) };
  return row!.lease ? { admitted: true, lease: row!.lease } : { admitted: false, busy: true };
};
