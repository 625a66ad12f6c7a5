import { and, eq, min } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { credentialBatchItems } from '../../db/schema/credential-batches.ts';
import { randomToken } from '../crypto/encoding.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { QUEUE_NAMES } from '../jobs/queues.ts';
import type { Logger } from '../logging/logger.ts';
import { claimBatch, claimExpiry, releaseClaim } from './batch-claim.ts';
import { findDueItems, lockTenantBatch, transitionItem, type BatchItemRow, type BatchRow } from './batch-repository.ts';
import { settleIfDone, settleResolvedBatch } from './batch-settlement.ts';
import { INTERRUPTED_MESSAGE, ITEM_CODES, markProcessingUnknown, recordFailedAttempt, type AttemptFailure, type RetryPolicy } from './item-outcome.ts';

/**
 * One item's issuance, as the batch worker calls it: the same code as POST /credentials. Calling it
 * starts the item's reads and checks, which send nothing anywhere and write nothing (the batch starts
 * them for its next item while the current one is issued); `issue`, called once the item is claimed,
 * does the rest and throws any refusal or fault met while preparing.
 */
export type IssueItem = (input: {
  tenantId: string;
  /** The item request as submitted (without `reference`); issuance parses it with the worker's settings. */
  body: unknown;
  correlationId: string;
}) => PreparedItem;

export interface PreparedItem {
  /** `onRecorded` runs inside the transaction that records the credential: the item settles ISSUED with it. */
  issue(onRecorded: (tx: Queryable, credentialId: string) => Promise<void>): Promise<{ credentialId: string; warnings: unknown[] }>;
}

export interface BatchWorkDeps {
  db: Database;
  box: SecretBox;
  logger: Logger;
  jobs: JobQueue;
  issueItem: IssueItem;
  /** Sorts an error thrown by `issueItem` into refused, pre-dispatch or unknown. */
  classify: (error: unknown) => AttemptFailure;
  policy: RetryPolicy & { jobTimeoutSeconds: number; retentionDays: number };
  /** The worker is stopping: finish the item in flight, claim no other, leave the rest to a continuation. */
  stopping?: AbortSignal;
}

/** Claim no new item when less than this share of the job's time is left: the item in flight must finish inside it. */
const RESERVE_SHARE = 0.2;

const enqueueContinuation = (deps: BatchWorkDeps, tx: Queryable, batch: BatchRow, startAfter?: Date) =>
  deps.jobs.enqueue(tx, { queue: QUEUE_NAMES.issueBatch, payload: { tenantId: batch.tenantId, batchId: batch.id } }, startAfter ? { startAfter } : {});

/** Items left PROCESSING by an earlier job were interrupted: their outcome is unknown and they are never replayed. */
const markInterrupted = async (tx: Queryable, batch: BatchRow, logger: Logger) => {
  const { moved } = await markProcessingUnknown(tx, batch, ITEM_CODES.interrupted, INTERRUPTED_MESSAGE);
  for (const item of moved) {
    logger.warn('Batch item attempt interrupted; outcome unknown', { batchId: batch.id, index: item.index, correlationId: item.correlationId });
  }
};

/** The item claimed, and the one due after it (prepared meanwhile; claimed only in its own turn). */
type Claimed = { item: BatchItemRow; token: string; next?: BatchItemRow };
type Step = Claimed | 'done';

/** Settles the batch when its work is done, logging the settlement (ids and counts) at info. */
const settleAndLog = async (deps: BatchWorkDeps, tx: Queryable, batch: BatchRow) => {
  const settled = await settleIfDone(tx, batch, deps.policy.retentionDays);
  if (!settled) return;
  const { id: batchId, tenantId, correlationId, state, itemCount, issuedCount, failedCount, unknownCount, cancelledCount } = settled;
  deps.logger.info('Batch settled', { batchId, tenantId, correlationId, state, itemCount, issuedCount, failedCount, unknownCount, cancelledCount });
};

/**
 * Under the batch lock, held by `tx` (the claim checked by the caller): marks the first due item in
 * index order PROCESSING with a new attempt token, renewing the hold in the same statement; answers it
 * with the item due after it (read with it in the same round trip, to be prepared), or undefined when
 * no item is due.
 */
const claimDue = async (deps: BatchWorkDeps, tx: Queryable, batch: BatchRow): Promise<Claimed | undefined> => {
  const now = new Date();
  const token = randomToken(16);
  const [moved, due] = await Promise.all([
    transitionItem(tx, {
      batchId: batch.id,
      itemId: { firstDueAt: now },
      from: ['QUEUED'],
      to: 'PROCESSING',
      set: { attemptToken: token, nextAttemptAt: null },
      countAttempt: true,
      batchChange: { claimExpiresAt: claimExpiry(deps.policy.jobTimeoutSeconds) },
    }),
    // Sent with the claim: whether it runs before or after it, the first of these that is not the claimed item is the next.
    findDueItems(tx, batch.id, now, 2),
  ]);
  if (!moved) return undefined;
  const next = due.find((item) => item.id !== moved.after.id);
  return { item: moved.after, token, ...(next ? { next } : {}) };
};

/**
 * Under the batch lock: stop on cancellation (settle when nothing is in flight), else, when the job
 * must end (out of time, or the worker stopping), queue a continuation, else start the next due
 * item in index order, else schedule a continuation for deferred retries, else settle.
 */
const nextStep = async (deps: BatchWorkDeps, claim: string, tenantId: string, batchId: string, mustEnd: boolean): Promise<Step> =>
  deps.db.transaction(async (tx) => {
    const batch = await lockTenantBatch(tx, tenantId, batchId);
    if (!batch || batch.claimToken !== claim) return 'done';
    if (batch.cancelRequestedAt) {
      await settleAndLog(deps, tx, batch);
      return 'done';
    }
    if (mustEnd) {
      await enqueueContinuation(deps, tx, batch);
      return 'done';
    }
    const claimed = await claimDue(deps, tx, batch);
    if (claimed) return claimed;
    const [deferred] = await tx
      .select({ at: min(credentialBatchItems.nextAttemptAt) })
      .from(credentialBatchItems)
      .where(and(eq(credentialBatchItems.batchId, batch.id), eq(credentialBatchItems.state, 'QUEUED')));
    if (deferred?.at) await enqueueContinuation(deps, tx, batch, deferred.at);
    else await settleAndLog(deps, tx, batch);
    return 'done';
  });

/**
 * In the transaction that settles an item ISSUED (the batch row locked by that write, `batch` as it
 * wrote it): claims the next due item there, unless the hold is lost, cancellation is requested or
 * the job must end (then the loop's own step decides). Saves the item its own claiming transaction.
 */
type ClaimNext = (tx: Queryable, batch: BatchRow) => Promise<Claimed | undefined>;

/** After a failed attempt whose transaction may have claimed the next item: that claim, if it was committed. */
const committedClaim = async (deps: BatchWorkDeps, claimed: Claimed): Promise<Claimed | undefined> => {
  const [row] = await deps.db
    .select({ id: credentialBatchItems.id })
    .from(credentialBatchItems)
    .where(and(eq(credentialBatchItems.id, claimed.item.id), eq(credentialBatchItems.state, 'PROCESSING'), eq(credentialBatchItems.attemptToken, claimed.token)));
  return row ? claimed : undefined;
};

/**
 * One attempt at one item; its outcome is recorded before this returns. Answers `'pause'` when the
 * item went back to the queue because a service the batch needs is down: a continuation is queued
 * for the item's retry time (in the same transaction) and the job claims no further item, so the
 * batch backs off as a whole instead of spending every item's attempts on the outage. Answers the
 * next item when the transaction that settled this one claimed it (`claimNext`).
 */
const attemptItem = async (
  deps: BatchWorkDeps,
  batch: { id: string; tenantId: string },
  item: BatchItemRow,
  token: string,
  prepared: Promise<PreparedItem>,
  claimNext: ClaimNext,
): Promise<'pause' | Claimed | undefined> => {
  const log = { batchId: batch.id, index: item.index, correlationId: item.correlationId };
  // Set inside the record's transaction: valid once that transaction has committed.
  let claimedNext: Claimed | undefined;
  const onRecorded = async (tx: Queryable, credentialId: string) => {
    // A late finish of an attempt already marked unknown still settles it: the record exists.
    const settled = await transitionItem(tx, {
      batchId: batch.id,
      itemId: item.id,
      from: ['PROCESSING', 'OUTCOME_UNKNOWN'],
      to: 'ISSUED',
      attemptToken: token,
      set: { credentialId, errorCode: null, errorMessage: null },
    });
    if (!settled) {
      deps.logger.warn('Credential recorded for a batch item that no longer awaits it', { ...log, credentialId });
      return;
    }
    // The attempt had been given up as unknown and its batch settled: with the last unknown gone it settles again.
    if (settled.before.state === 'OUTCOME_UNKNOWN') await settleResolvedBatch(tx, settled.batch, deps.policy.retentionDays);
    else claimedNext = await claimNext(tx, settled.batch);
  };

  let result: Awaited<ReturnType<PreparedItem['issue']>>;
  try {
    result = await (await prepared).issue(onRecorded);
  } catch (error) {
    const failure: AttemptFailure = deps.classify(error);
    deps.logger.warn('Batch item attempt failed', { ...log, kind: failure.kind, code: failure.code, error: String(error) });
    // The record's transaction ran and claimed the next item, then something failed: that claim stands only if it was committed.
    const carried = claimedNext && (await committedClaim(deps, claimedNext));
    const outcome = await deps.db.transaction(async (tx) => {
      const locked = await lockTenantBatch(tx, batch.tenantId, batch.id);
      if (!locked) return undefined;
      const moved = await recordFailedAttempt(tx, locked, item, token, failure, deps.policy);
      if (!failure.dependencyDown || moved?.after.state !== 'QUEUED' || !moved.after.nextAttemptAt) return undefined;
      await enqueueContinuation(deps, tx, moved.batch, moved.after.nextAttemptAt);
      deps.logger.warn('Batch paused: a service it needs is down', { batchId: batch.id, code: failure.code, resumesAt: moved.after.nextAttemptAt.toISOString() });
      return 'pause' as const;
    });
    // An item claimed is issued in this job, never left PROCESSING (it would become unknown).
    return carried || outcome;
  }
  deps.logger.info('Batch item issued', { ...log, credentialId: result.credentialId });
  if (result.warnings.length === 0) return claimedNext;
  // Warnings are shown with the item; the item is settled already, so failing to keep them only loses the display.
  try {
    await deps.db
      .update(credentialBatchItems)
      .set({ warnings: result.warnings })
      .where(and(eq(credentialBatchItems.id, item.id), eq(credentialBatchItems.attemptToken, token)));
  } catch (error) {
    deps.logger.warn('Warnings of an issued batch item could not be kept', { ...log, credentialId: result.credentialId, error: String(error) });
  }
  return claimedNext;
};

/**
 * Starts an item's preparation: its sealed request opened, then issuance's reads and checks (nothing
 * sent, nothing written). A failure is thrown only where the attempt awaits it, after the claim.
 */
const prepare = (deps: BatchWorkDeps, tenantId: string, item: BatchItemRow): { itemId: string; prepared: Promise<PreparedItem> } => {
  const prepared = deps.box.decryptJson(item.sealedRequest).then((body) => deps.issueItem({ tenantId, body, correlationId: item.correlationId }));
  prepared.catch(() => {});
  return { itemId: item.id, prepared };
};

/**
 * The `credentials.issue-batch` job (spec "Batch item state", batch notes 1–3): claims the batch,
 * turns attempts an earlier job left PROCESSING into OUTCOME_UNKNOWN, then issues the items in
 * index order, one at a time, each marked PROCESSING in a committed transaction before anything is
 * sent for it (the one that settled the item before it, or one of its own), the next item's request
 * opened and checked meanwhile, which sends and writes nothing. A
 * service the batch needs being down pauses it until the failed item's retry time. It
 * claims nothing and queues no continuation once cancellation is requested; when its time runs
 * short, when the worker stops (after the item in flight), or when only deferred retries remain, it
 * queues a continuation; when all is settled, it settles the batch.
 */
export const processBatch = async (deps: BatchWorkDeps, tenantId: string, batchId: string): Promise<void> => {
  const deadline = Date.now() + deps.policy.jobTimeoutSeconds * 1000 * (1 - RESERVE_SHARE);
  const claim = await deps.db.transaction(async (tx) => {
    const claimed = await claimBatch(tx, tenantId, batchId, deps.policy.jobTimeoutSeconds);
    if (claimed) await markInterrupted(tx, claimed.batch, deps.logger);
    return claimed;
  });
  if (!claim) {
    deps.logger.info('Batch not claimed: settled, unknown or held by another job', { batchId });
    return;
  }
  const mustEnd = () => Date.now() > deadline || deps.stopping?.aborted === true;
  const claimNext: ClaimNext = async (tx, batch) =>
    batch.claimToken === claim.token && !batch.cancelRequestedAt && !mustEnd() ? claimDue(deps, tx, batch) : undefined;
  try {
    // The next item's preparation runs while the current one is issued; it is used only if that item is the next claimed.
    let ahead: ReturnType<typeof prepare> | undefined;
    let carried: Claimed | undefined;
    for (;;) {
      const step = carried ?? (await nextStep(deps, claim.token, tenantId, batchId, mustEnd()));
      if (step === 'done') return;
      const current = ahead?.itemId === step.item.id ? ahead : prepare(deps, tenantId, step.item);
      ahead = step.next ? prepare(deps, tenantId, step.next) : undefined;
      const outcome = await attemptItem(deps, claim.batch, step.item, step.token, current.prepared, claimNext);
      if (outcome === 'pause') return;
      carried = outcome;
    }
  } finally {
    await releaseClaim(deps.db, batchId, claim.token);
  }
};
