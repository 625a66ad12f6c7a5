import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { credentialBatchItems } from '../../db/schema/credential-batches.ts';
import type { BatchItemRow, BatchRow } from './batch-repository.ts';
import { transitionItem } from './batch-repository.ts';

/**
 * How one failed attempt ends (spec "Batch item state"):
 * - `refused`: a definitive refusal (a 4xx of issuance) → FAILED with its stable code;
 * - `pre-dispatch`: nothing was sent for signing yet (status-list mint failures included) → retried;
 * - `unknown`: the sign request was sent, or the attempt broke in a way that cannot rule it out →
 *   OUTCOME_UNKNOWN, never replayed.
 */
export type AttemptFailure = {
  kind: 'refused' | 'pre-dispatch' | 'unknown';
  code: string;
  message: string;
  /** A pre-dispatch fault because a service the batch needs is down: the whole batch waits, not only the item. */
  dependencyDown?: boolean;
};

export const ITEM_CODES = {
  attemptsExhausted: 'ITEM_ATTEMPTS_EXHAUSTED',
  interrupted: 'ATTEMPT_INTERRUPTED',
  abandoned: 'ATTEMPT_ABANDONED',
  unexpected: 'UNEXPECTED',
} as const;

export const INTERRUPTED_MESSAGE =
  'The attempt was interrupted (worker stop or job timeout); the credential may or may not have been issued. It is not retried automatically: an operator must resolve it.';
export const ABANDONED_MESSAGE =
  'The attempt was abandoned while the batch was being cancelled; the credential may or may not have been issued. An operator must resolve it.';

export interface RetryPolicy {
  /** BATCH_JOB_RETRY_LIMIT: total attempts per item. */
  retryLimit: number;
  /** BATCH_JOB_RETRY_BACKOFF_SECONDS and _MAX_SECONDS. */
  backoffSeconds: number;
  backoffMaxSeconds: number;
}

/** The wait before attempt n+1 after n failed attempts: the base doubling per attempt, capped. */
export const retryDelaySeconds = (attemptsMade: number, policy: RetryPolicy): number =>
  Math.min(policy.backoffSeconds * 2 ** Math.max(0, attemptsMade - 1), policy.backoffMaxSeconds);

/**
 * Records a failed attempt of the item holding `attemptToken`, in the caller's transaction (the
 * batch row locked): FAILED, OUTCOME_UNKNOWN, or for a pre-dispatch fault one of: FAILED when
 * attempts are exhausted (even after cancellation), CANCELLED when cancellation was requested,
 * else QUEUED again with the doubling backoff.
 */
export const recordFailedAttempt = async (
  tx: Queryable,
  batch: BatchRow,
  item: { id: string; attemptCount: number },
  attemptToken: string,
  failure: AttemptFailure,
  policy: RetryPolicy,
  now = new Date(),
) => {
  const base = { batchId: batch.id, itemId: item.id, from: ['PROCESSING'] as const, attemptToken };
  if (failure.kind === 'refused') {
    return transitionItem(tx, { ...base, to: 'FAILED', set: { errorCode: failure.code, errorMessage: failure.message } });
  }
  if (failure.kind === 'unknown') {
    return transitionItem(tx, { ...base, to: 'OUTCOME_UNKNOWN', set: { errorCode: failure.code, errorMessage: failure.message } });
  }
  if (item.attemptCount >= policy.retryLimit) {
    const message = `Not issued after ${item.attemptCount} attempts; the last failed before signing with ${failure.code}: ${failure.message}`;
    return transitionItem(tx, { ...base, to: 'FAILED', set: { errorCode: ITEM_CODES.attemptsExhausted, errorMessage: message } });
  }
  if (batch.cancelRequestedAt) {
    return transitionItem(tx, { ...base, to: 'CANCELLED', set: { errorCode: null, errorMessage: null, attemptToken: null } });
  }
  const nextAttemptAt = new Date(now.getTime() + retryDelaySeconds(item.attemptCount, policy) * 1000);
  return transitionItem(tx, {
    ...base,
    to: 'QUEUED',
    set: { nextAttemptAt, attemptToken: null, errorCode: failure.code, errorMessage: failure.message },
  });
};

/**
 * Moves every item of the batch still PROCESSING to OUTCOME_UNKNOWN with `code` and `message`, in
 * the caller's transaction (the batch row locked): an attempt that can no longer finish is never
 * replayed. Returns the items moved and the batch row after the last move (`batch` when none did).
 */
export const markProcessingUnknown = async (
  tx: Queryable,
  batch: BatchRow,
  code: string,
  message: string,
): Promise<{ moved: BatchItemRow[]; batch: BatchRow }> => {
  const stuck = await tx
    .select()
    .from(credentialBatchItems)
    .where(and(eq(credentialBatchItems.batchId, batch.id), eq(credentialBatchItems.state, 'PROCESSING')));
  const moved: BatchItemRow[] = [];
  let latest = batch;
  for (const item of stuck) {
    const done = await transitionItem(tx, {
      batchId: batch.id,
      itemId: item.id,
      from: ['PROCESSING'],
      to: 'OUTCOME_UNKNOWN',
      set: { errorCode: code, errorMessage: message },
    });
    if (!done) continue;
    moved.push(done.after);
    latest = done.batch;
  }
  return { moved, batch: latest };
};
