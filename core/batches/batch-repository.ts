import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { credentialBatches, credentialBatchItems, type BatchItemState } from '../../db/schema/credential-batches.ts';

export type BatchRow = typeof credentialBatches.$inferSelect;
export type BatchItemRow = typeof credentialBatchItems.$inferSelect;

/** The stored counter of each item state: one place maps states to columns. */
export const COUNTER_OF = {
  QUEUED: 'queuedCount',
  PROCESSING: 'processingCount',
  ISSUED: 'issuedCount',
  FAILED: 'failedCount',
  OUTCOME_UNKNOWN: 'unknownCount',
  CANCELLED: 'cancelledCount',
} as const satisfies Record<BatchItemState, keyof BatchRow>;

const counterColumn = (state: BatchItemState) => credentialBatches[COUNTER_OF[state]];

/** A tenant's batch, or undefined for an unknown id and another tenant's alike. */
export const findTenantBatch = async (db: Queryable, tenantId: string, batchId: string): Promise<BatchRow | undefined> => {
  const [row] = await db
    .select()
    .from(credentialBatches)
    .where(and(eq(credentialBatches.id, batchId), eq(credentialBatches.tenantId, tenantId)));
  return row;
};

/** As `findTenantBatch`, holding the row until the transaction ends: state changes of one batch queue behind each other. */
export const lockTenantBatch = async (tx: Queryable, tenantId: string, batchId: string): Promise<BatchRow | undefined> => {
  const [row] = await tx
    .select()
    .from(credentialBatches)
    .where(and(eq(credentialBatches.id, batchId), eq(credentialBatches.tenantId, tenantId)))
    .for('update');
  return row;
};

/** A batch's items in index order. */
export const findBatchItems = (db: Queryable, batchId: string): Promise<BatchItemRow[]> =>
  db.select().from(credentialBatchItems).where(eq(credentialBatchItems.batchId, batchId)).orderBy(asc(credentialBatchItems.index));

/** One item of a tenant's batch by its zero-based index. */
export const findTenantBatchItem = async (
  db: Queryable,
  tenantId: string,
  batchId: string,
  index: number,
): Promise<BatchItemRow | undefined> => {
  const [row] = await db
    .select()
    .from(credentialBatchItems)
    .where(and(eq(credentialBatchItems.batchId, batchId), eq(credentialBatchItems.tenantId, tenantId), eq(credentialBatchItems.index, index)));
  return row;
};

/** The stored state of every item, counted: compared with the batch's counters on every read. */
export const countItemsByState = async (db: Queryable, batchId: string): Promise<Record<BatchItemState, number>> => {
  const rows = await db
    .select({ state: credentialBatchItems.state, n: sql<number>`count(*)::int` })
    .from(credentialBatchItems)
    .where(eq(credentialBatchItems.batchId, batchId))
    .groupBy(credentialBatchItems.state);
  const counts: Record<BatchItemState, number> = { QUEUED: 0, PROCESSING: 0, ISSUED: 0, FAILED: 0, OUTCOME_UNKNOWN: 0, CANCELLED: 0 };
  for (const row of rows) counts[row.state] = row.n;
  return counts;
};

export type BatchChange = Partial<Pick<BatchRow, 'state' | 'cancelRequestedAt' | 'settledAt' | 'resolvedAt' | 'expiresAt' | 'claimToken' | 'claimExpiresAt'>>;

/**
 * Every state change of a batch or of one of its items goes through here, in the transaction of
 * the change: the version moves by one and `lastProgressAt` to now. The version is the fence
 * operator resolution relies on: a late worker write makes a stale resolution fail.
 */
export const bumpBatchVersion = async (
  tx: Queryable,
  batchId: string,
  change: BatchChange = {},
  counters: Partial<Record<(typeof COUNTER_OF)[BatchItemState], SQL>> = {},
): Promise<BatchRow> => {
  const [row] = await tx
    .update(credentialBatches)
    .set({ ...change, ...counters, version: sql`${credentialBatches.version} + 1`, lastProgressAt: new Date() })
    .where(eq(credentialBatches.id, batchId))
    .returning();
  if (!row) throw new Error(`Batch ${batchId} vanished during a state change`);
  return row;
};

export type ItemChange = Partial<
  Pick<
    BatchItemRow,
    | 'credentialId'
    | 'warnings'
    | 'errorCode'
    | 'errorMessage'
    | 'resolutionReason'
    | 'resolutionEvidence'
    | 'resolvedAt'
    | 'attemptCount'
    | 'nextAttemptAt'
    | 'attemptToken'
  >
>;

export interface ItemTransition {
  batchId: string;
  itemId: string;
  /** The states the item may be in for the change to apply; otherwise nothing is written. */
  from: readonly BatchItemState[];
  to: BatchItemState;
  /** When given, the change applies only to the attempt holding this token. */
  attemptToken?: string;
  set?: ItemChange;
  /** A change of the batch row written with the counters and the version (e.g. the claim's new expiry). */
  batchChange?: BatchChange;
  /** The item as the caller's transaction already read it `FOR UPDATE` (then it is not read again). */
  locked?: BatchItemRow;
}

/**
 * Moves one item from one of `from` to `to` in the caller's transaction: the item row (read `FOR UPDATE`
 * unless the caller hands it over `locked`), and with it, sent together, both counters, the batch version
 * and `batchChange` in one update of the batch row. Returns the item before and after, or undefined (and
 * writes nothing) when the item is no longer in an expected state or the attempt token differs.
 */
export const transitionItem = async (
  tx: Queryable,
  t: ItemTransition,
): Promise<{ before: BatchItemRow; after: BatchItemRow; batch: BatchRow } | undefined> => {
  const expected = (row: BatchItemRow) => row.id === t.itemId && row.batchId === t.batchId && t.from.includes(row.state);
  const [before] = t.locked
    ? [t.locked].filter(expected)
    : await tx
        .select()
        .from(credentialBatchItems)
        .where(and(eq(credentialBatchItems.id, t.itemId), eq(credentialBatchItems.batchId, t.batchId), inArray(credentialBatchItems.state, [...t.from])))
        .for('update');
  if (!before) return undefined;
  if (t.attemptToken !== undefined && before.attemptToken !== t.attemptToken) return undefined;
  const counters =
    before.state === t.to
      ? {}
      : { [COUNTER_OF[before.state]]: sql`${counterColumn(before.state)} - 1`, [COUNTER_OF[t.to]]: sql`${counterColumn(t.to)} + 1` };
  // The item (locked above) and its batch's counters and version are written together: neither waits on the other.
  const [[after], batch] = await Promise.all([
    tx.update(credentialBatchItems).set({ ...t.set, state: t.to }).where(eq(credentialBatchItems.id, before.id)).returning().execute(),
    bumpBatchVersion(tx, t.batchId, t.batchChange, counters),
  ]);
  return { before, after: after!, batch };
};

/**
 * Moves every item of a batch in `from` to `to` at once (cancel: all queued items), with the
 * counters, `batchChange` and one version bump. Returns the batch row after the change, or
 * undefined (and writes nothing) when no item moved.
 */
export const transitionAllItems = async (
  tx: Queryable,
  batchId: string,
  from: BatchItemState,
  to: BatchItemState,
  set: ItemChange = {},
  batchChange: BatchChange = {},
): Promise<BatchRow | undefined> => {
  const moved = await tx
    .update(credentialBatchItems)
    .set({ ...set, state: to })
    .where(and(eq(credentialBatchItems.batchId, batchId), eq(credentialBatchItems.state, from)))
    .returning({ id: credentialBatchItems.id });
  if (moved.length === 0) return undefined;
  return bumpBatchVersion(tx, batchId, batchChange, {
    [COUNTER_OF[from]]: sql`${counterColumn(from)} - ${moved.length}`,
    [COUNTER_OF[to]]: sql`${counterColumn(to)} + ${moved.length}`,
  });
};
