import type { Database, Queryable } from '../../db/client.ts';
import { ApiError, conflict } from '../errors.ts';
import { projectBatch, projectTombstone, verifiedCounts, type BatchProjection } from './batch-projection.ts';
import { bumpBatchVersion, lockTenantBatch, transitionAllItems, type BatchRow } from './batch-repository.ts';

const CANCEL_MESSAGE =
  'Queued items are cancelled. An item already processing may still be issued. Cancellation does not revoke any credentials.';

/** 404 for an unknown and a foreign batch alike. */
export const batchNotFound = () => new ApiError(404, 'Credential batch not found', 'NOT_FOUND');

/** 410 with the tombstone of an expired batch. */
export const batchExpired = async (db: Queryable, batch: BatchRow) => {
  const { error, code, ...tombstone } = await projectTombstone(db, batch);
  return new ApiError(410, error, code, tombstone);
};

/**
 * Cancels a QUEUED or RUNNING batch (spec "Credential and public routes", cancel row): records the
 * first request instant and turns every queued item (deferred retries included) CANCELLED, in one
 * transaction; the item in flight finishes and the worker settles the batch. A repeat writes
 * nothing. Settled: 409 BATCH_NOT_CANCELLABLE; expired: 410; counter drift: 500 and nothing written.
 */
export const cancelBatch = async (db: Database, tenantId: string, batchId: string): Promise<BatchProjection & { message: string }> =>
  db.transaction(async (tx) => {
    let batch = await lockTenantBatch(tx, tenantId, batchId);
    if (!batch) throw batchNotFound();
    if (batch.state === 'EXPIRED') throw await batchExpired(tx, batch);
    if (batch.state !== 'QUEUED' && batch.state !== 'RUNNING') {
      throw conflict(`A ${batch.state} batch cannot be cancelled`, 'BATCH_NOT_CANCELLABLE');
    }
    // Drift is found before anything is written: never act on counts that are already wrong.
    await verifiedCounts(tx, batch);
    if (!batch.cancelRequestedAt) {
      // One write of the batch row: the request instant with the moved items' counters, or alone when none was queued.
      const change = { cancelRequestedAt: new Date() };
      batch =
        (await transitionAllItems(tx, batch.id, 'QUEUED', 'CANCELLED', { nextAttemptAt: null, errorCode: null, errorMessage: null }, change)) ??
        (await bumpBatchVersion(tx, batch.id, change));
    }
    return { ...(await projectBatch(tx, batch)), message: CANCEL_MESSAGE };
  });
