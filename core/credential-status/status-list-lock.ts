import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { pgErrorCode } from '../db-errors.ts';
import { statusError } from './status-errors.ts';

/**
 * Serialises bit changes on one status list across processes: a VC service may re-sign a list as
 * read-modify-write, so two changes at once could lose one. The lock is a transaction-scoped advisory
 * lock held while `work` runs; waiting longer than CREDENTIAL_STATUS_LOCK_ACQUIRE_MS is 503
 * `STATUS_LIST_BUSY`, any other failure to take it 503 `STATUS_COORDINATION_UNAVAILABLE`. `work`
 * writes through its own transactions, so nothing it records depends on this one committing.
 */
/** The advisory-lock key of a status list (exported so tests can hold it). */
export const statusListLockKey = (listUrl: string) => `status-list-bits:${listUrl}`;

export const statusListLockFor = async <T>(db: Database, listUrl: string, waitMs: number, work: () => Promise<T>): Promise<T> => {
  let held = false;
  let done: { value: T } | undefined;
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('lock_timeout', ${`${waitMs}ms`}, true)`);
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${statusListLockKey(listUrl)}))`);
      held = true;
      done = { value: await work() };
    });
  } catch (error) {
    if (!held) throw statusError(pgErrorCode(error) === '55P03' ? 'STATUS_LIST_BUSY' : 'STATUS_COORDINATION_UNAVAILABLE');
    // The work finished and recorded its outcome; only releasing the lock failed (the session ending releases it too).
    if (done) return done.value;
    throw error;
  }
  return done!.value;
};
