import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { pgErrorCode } from '../db-errors.ts';
import { statusError } from './status-errors.ts';

/** The advisory-lock key of a status list (exported so tests can hold it). */
export const statusListLockKey = (listUrl: string) => `status-list-bits:${listUrl}`;

/**
 * Takes a status list's lock for the rest of the transaction `tx`, waiting at most `waitMs`: longer is
 * 503 `STATUS_LIST_BUSY`, any other failure 503 `STATUS_COORDINATION_UNAVAILABLE`. Held only while a
 * claim is written, never across a call to the VC service (see claimOperation).
 */
export const lockStatusList = async (tx: Queryable, listUrl: string, waitMs: number) => {
  try {
    await tx.execute(sql`select set_config('lock_timeout', ${`${Math.max(1, Math.ceil(waitMs))}ms`}, true)`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${statusListLockKey(listUrl)}))`);
  } catch (error) {
    throw statusError(pgErrorCode(error) === '55P03' ? 'STATUS_LIST_BUSY' : 'STATUS_COORDINATION_UNAVAILABLE');
  }
};
