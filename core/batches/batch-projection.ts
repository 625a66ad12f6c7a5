import { BATCH_ITEM_STATES, type BatchItemState } from '../../db/schema/credential-batches.ts';
import type { Database, Queryable } from '../../db/client.ts';
import { COUNTER_OF, countItemsByState, findBatchItems, type BatchItemRow, type BatchRow } from './batch-repository.ts';

/** What a tenant sees for an item an operator confirmed as not issued (the evidence stays with the operator). */
export const OPERATOR_CONFIRMED_FAILED = { code: 'OPERATOR_CONFIRMED_FAILED', message: 'An operator confirmed this item was not issued.' } as const;

const BATCH_EXPIRED_MESSAGE = 'This credential batch has expired. Its credentials were not deleted.';

export interface BatchCounts {
  total: number;
  queued: number;
  processing: number;
  issued: number;
  failed: number;
  unknown: number;
  cancelled: number;
}

const COUNT_KEY = {
  QUEUED: 'queued',
  PROCESSING: 'processing',
  ISSUED: 'issued',
  FAILED: 'failed',
  OUTCOME_UNKNOWN: 'unknown',
  CANCELLED: 'cancelled',
} as const satisfies Record<BatchItemState, keyof BatchCounts>;

/**
 * The stored counters disagree with the items (or with the total). Never repaired silently: the
 * read fails with a 500 that the error handler logs with the batch id and both sets of numbers.
 */
export class BatchCountsDrift extends Error {
  constructor(batchId: string, stored: BatchCounts, actual?: Record<BatchItemState, number>) {
    super(`Batch ${batchId}: stored counts ${JSON.stringify(stored)} disagree with ${actual ? `items ${JSON.stringify(actual)}` : 'the total'}`);
    this.name = 'BatchCountsDrift';
  }
}

const storedCounts = (batch: BatchRow): BatchCounts => {
  const counts = { total: batch.itemCount } as BatchCounts;
  for (const state of BATCH_ITEM_STATES) counts[COUNT_KEY[state]] = batch[COUNTER_OF[state]];
  return counts;
};

/** Counts from the row, checked: they sum to the total, and (while items exist) match the items. */
export const verifiedCounts = async (db: Queryable, batch: BatchRow): Promise<BatchCounts> => {
  const counts = storedCounts(batch);
  const sum = BATCH_ITEM_STATES.reduce((n, state) => n + counts[COUNT_KEY[state]], 0);
  if (sum !== counts.total) throw new BatchCountsDrift(batch.id, counts);
  if (batch.state === 'EXPIRED') return counts;
  const actual = await countItemsByState(db, batch.id);
  if (BATCH_ITEM_STATES.some((state) => actual[state] !== counts[COUNT_KEY[state]])) throw new BatchCountsDrift(batch.id, counts, actual);
  return counts;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const projectItem = (item: BatchItemRow) => {
  const operatorFailed = item.state === 'FAILED' && item.resolvedAt !== null;
  const error = operatorFailed
    ? { ...OPERATOR_CONFIRMED_FAILED }
    : item.errorCode
      ? { code: item.errorCode, message: item.errorMessage ?? item.errorCode }
      : undefined;
  return {
    index: item.index,
    ...(item.reference !== null ? { reference: item.reference } : {}),
    state: item.state,
    ...(item.credentialId !== null && (item.state === 'ISSUED' || item.state === 'OUTCOME_UNKNOWN') ? { credentialId: item.credentialId } : {}),
    ...(item.warnings !== null ? { warnings: item.warnings } : {}),
    ...(error ? { error } : {}),
    ...(item.resolvedAt !== null ? { resolutionReason: item.resolutionReason, resolvedAt: item.resolvedAt.toISOString() } : {}),
  };
};
export type BatchItemProjection = ReturnType<typeof projectItem>;

const header = (batch: BatchRow, counts: BatchCounts) => ({
  id: batch.id,
  state: batch.state,
  counts,
  correlationId: batch.correlationId,
  cancelRequestedAt: iso(batch.cancelRequestedAt),
  createdAt: batch.createdAt.toISOString(),
  lastProgressAt: batch.lastProgressAt.toISOString(),
  settledAt: iso(batch.settledAt),
  resolvedAt: iso(batch.resolvedAt),
  expiresAt: iso(batch.expiresAt),
  version: batch.version,
});

/**
 * Runs a read of a batch in one snapshot (repeatable read, read only): the row and its items are
 * seen as of one instant. Two plain reads could straddle a worker's commit (an item moved, its
 * counters with it) and look like drift.
 */
export const inOneSnapshot = <T>(db: Database, read: (tx: Queryable) => Promise<T>): Promise<T> =>
  db.transaction(read, { isolationLevel: 'repeatable read', accessMode: 'read only' });

/** The status resource of a live batch: header, checked counts and the items in index order. */
export const projectBatch = async (db: Queryable, batch: BatchRow) => {
  const counts = await verifiedCounts(db, batch);
  const items = await findBatchItems(db, batch.id);
  return { ...header(batch, counts), items: items.map(projectItem) };
};
export type BatchProjection = Awaited<ReturnType<typeof projectBatch>>;

/** What an expired batch leaves: the header with its counts, the submission key and the body digest, no items. */
export const projectTombstone = async (db: Queryable, batch: BatchRow) => ({
  error: BATCH_EXPIRED_MESSAGE,
  code: 'BATCH_EXPIRED',
  ...header(batch, await verifiedCounts(db, batch)),
  idempotencyKey: batch.idempotencyKey,
  bodyDigest: batch.bodyDigest,
  items: [] as BatchItemProjection[],
});
export type BatchTombstone = Awaited<ReturnType<typeof projectTombstone>>;
