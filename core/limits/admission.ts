import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { secondsUntilToken } from './client-rate-limit.ts';

export interface AdmissionLimits {
  /** The per-client token bucket (client-rate-limit.ts): every request counts. */
  rate: { scope: string; client: string; perMinute: number };
  /** The concurrency lease (concurrency-lease.ts), taken only when the bucket lets the request through. */
  lease: { scope: string; limit: number; seconds: number };
}

/** Let in with a lease to leave with (leaveConcurrency), or refused by the client's rate or by every slot taken. */
export type Admission = { admitted: true; lease: string } | { admitted: false; retryAfterSeconds: number; busy: false } | { admitted: false; busy: true };

/** What `limits_admit` answers: the client's bucket as the request left it, and the lease when one was taken. */
export type AdmissionRow = { tokens: number; granted: boolean; lease: string | null };

type Bound<T> = { [K in keyof T]: { [F in keyof T[K]]: T[K][F] | Placeholder } };

/**
 * The call of `limits_admit` (migration 0019): it takes the client's token and, when granted, enters
 * the concurrency scope, in one statement with the very rules of takeClientToken and enterConcurrency
 * (it calls their SQL functions). Values or placeholders (for a prepared statement that reads more
 * beside it); its columns are those of AdmissionRow.
 */
export const admissionCall = ({ rate, lease }: Bound<AdmissionLimits>): SQL =>
  sql`limits_admit(${rate.scope}::text, ${rate.client}::text, ${rate.perMinute}::float8, ${lease.scope}::text, ${lease.limit}::integer, ${lease.seconds}::float8)`;

/** The admission a row of `limits_admit` means (Retry-After as takeClientToken counts it). */
export const admissionOf = (row: AdmissionRow, perMinute: number): Admission => {
  if (!row.granted) return { admitted: false, busy: false, retryAfterSeconds: secondsUntilToken(row, perMinute) };
  return row.lease ? { admitted: true, lease: row.lease } : { admitted: false, busy: true };
};
