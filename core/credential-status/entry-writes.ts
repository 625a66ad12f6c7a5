import { and, eq, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { credentialStatusEntries, serviceInstances } from '../../db/schema/index.ts';
import type { StatusEntryRow } from './managed-credential.ts';
import { statusError } from './status-errors.ts';
import { assertNoLiveOperation } from './pending-rules.ts';
import { lockStatusList } from './status-list-lock.ts';

const entries = credentialStatusEntries;

/**
 * Claims a status operation: commits the pending value and its deadline before the VC service is
 * called, fenced on the version the caller read and on no other operation being pending.
 *
 * One operation per status list at a time (a VC service may re-sign a list as read-modify-write, so
 * two changes at once could lose one): a live pending entry on the same list (before its deadline
 * plus grace) holds the list, and claims wait for it up to CREDENTIAL_STATUS_LOCK_ACQUIRE_MS, then
 * 503 `STATUS_LIST_BUSY`. The list's advisory lock is held only while a claim is checked and
 * written, so no connection is held across the VC call and a crashed operation frees the list at its
 * deadline. The VC instance row is share-locked meanwhile, so a config change or delete (which lock
 * it for update, then look for pending entries) either sees this claim or finishes before it.
 */
export const claimOperation = async (
  db: Database,
  entry: StatusEntryRow,
  instanceId: string,
  claim: { value: boolean; ifVersion: number; budgetMs: number; graceMs: number; lockAcquireMs: number; provider: string },
) => {
  const waitUntil = Date.now() + claim.lockAcquireMs;
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      await lockStatusList(tx, entry.statusListCredential, waitUntil - Date.now());
      const [instance] = await tx.select({ id: serviceInstances.id }).from(serviceInstances).where(eq(serviceInstances.id, instanceId)).for('share');
      if (!instance) throw statusError('STATUS_METADATA_UNAVAILABLE');
      const since = new Date();
      const [holder] = await tx
        .select({ id: entries.id })
        .from(entries)
        .where(
          and(
            eq(entries.statusListCredential, entry.statusListCredential),
            isNotNull(entries.pendingSince),
            gt(entries.pendingDeadline, new Date(since.getTime() - claim.graceMs)),
            ne(entries.id, entry.id),
          ),
        )
        .limit(1);
      if (holder) return undefined;
      const [row] = await tx
        .update(entries)
        .set({
          pendingValue: claim.value,
          pendingSince: since,
          pendingDeadline: new Date(since.getTime() + claim.budgetMs),
          pendingProvider: claim.provider,
          updatedAt: since,
        })
        .where(and(eq(entries.id, entry.id), eq(entries.version, claim.ifVersion), isNull(entries.pendingSince)))
        .returning();
      if (row) return row;
      const [now] = await tx.select().from(entries).where(eq(entries.id, entry.id));
      if (now) assertNoLiveOperation(now, claim.graceMs);
      throw statusError('VERSION_CONFLICT');
    });
    if (claimed) return claimed;
    const left = waitUntil - Date.now();
    if (left <= 0) throw statusError('STATUS_LIST_BUSY');
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, left)));
  }
};

/**
 * Records what the provider's list shows and ends the pending operation, fenced on the pending
 * operation the caller saw (`pendingSince`, null for none: a claim made meanwhile is never erased) and,
 * for a reconcile, the version it read. Zero rows when another request got there first.
 */
export const settleEntry = async (db: Database, entryId: string, observed: boolean, fence: { pendingSince: Date | null; version?: number }) => {
  const now = new Date();
  const [row] = await db
    .update(entries)
    .set({
      value: observed,
      observedAt: now,
      valueChangedAt: sql`case when ${entries.value} is distinct from ${observed} then ${now.toISOString()}::timestamptz else ${entries.valueChangedAt} end`,
      version: sql`${entries.version} + 1`,
      pendingValue: null,
      pendingSince: null,
      pendingDeadline: null,
      pendingProvider: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(entries.id, entryId),
        fence.pendingSince ? eq(entries.pendingSince, fence.pendingSince) : isNull(entries.pendingSince),
        fence.version !== undefined ? eq(entries.version, fence.version) : undefined,
      ),
    )
    .returning();
  return row;
};

/** Ends a claim the VC service definitively refused: nothing changed there, so nothing changes here but the claim. */
export const releaseClaim = async (db: Database, entryId: string, pendingSince: Date) => {
  await db
    .update(entries)
    .set({ pendingValue: null, pendingSince: null, pendingDeadline: null, pendingProvider: null, updatedAt: new Date() })
    .where(and(eq(entries.id, entryId), eq(entries.pendingSince, pendingSince)));
};
