import type { Queryable } from '../../db/client.ts';
import type { BatchState } from '../../db/schema/credential-batches.ts';
import { bumpBatchVersion, type BatchRow } from './batch-repository.ts';

const DAY_MS = 86_400_000;

/**
 * The state a batch with nothing queued or processing settles in (spec "Batch state"): unknown
 * outcomes take precedence, then cancellation; undefined while work remains.
 */
const settledStateOf = (batch: BatchRow): BatchState | undefined => {
  if (batch.queuedCount > 0 || batch.processingCount > 0) return undefined;
  if (batch.unknownCount > 0) return 'NEEDS_ATTENTION';
  return batch.cancelledCount > 0 ? 'CANCELLED' : 'COMPLETED';
};

/** The retention deadline from a settlement (or resolution) instant; a batch needing attention has none. */
const retentionDeadline = (state: BatchState, from: Date, retentionDays: number): Date | null =>
  state === 'COMPLETED' || state === 'CANCELLED' ? new Date(from.getTime() + retentionDays * DAY_MS) : null;

/**
 * Settles a QUEUED or RUNNING batch whose work is done, in the caller's transaction (the batch row
 * locked by the caller). Returns the settled row, or undefined when work remains.
 */
export const settleIfDone = async (tx: Queryable, batch: BatchRow, retentionDays: number): Promise<BatchRow | undefined> => {
  if (batch.state !== 'QUEUED' && batch.state !== 'RUNNING') return undefined;
  const state = settledStateOf(batch);
  if (!state) return undefined;
  const now = new Date();
  return bumpBatchVersion(tx, batch.id, { state, settledAt: now, expiresAt: retentionDeadline(state, now, retentionDays), claimToken: null, claimExpiresAt: null });
};

/**
 * After an operator resolves an unknown item (CLI `resolve-item`): once no unknown remains, a
 * NEEDS_ATTENTION batch becomes CANCELLED or COMPLETED with a new retention window from
 * `resolvedAt`. Never queues issuance. Returns the new row, or undefined when unknowns remain.
 */
export const settleResolvedBatch = async (tx: Queryable, batch: BatchRow, retentionDays: number): Promise<BatchRow | undefined> => {
  if (batch.state !== 'NEEDS_ATTENTION') return undefined;
  const state = settledStateOf(batch);
  if (!state || state === 'NEEDS_ATTENTION') return undefined;
  const now = new Date();
  return bumpBatchVersion(tx, batch.id, { state, resolvedAt: now, expiresAt: retentionDeadline(state, now, retentionDays) });
};
