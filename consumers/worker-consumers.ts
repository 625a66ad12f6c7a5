import type { Consumer } from './consumer.ts';
import { expireBatchesConsumer } from './jobs/expire-batches.ts';
import { issueBatchConsumer } from './jobs/issue-batch.ts';
import { libraryReconcilePendingRuns } from './jobs/library-reconcile-pending-runs.ts';
import { libraryVerifyGeneration } from './jobs/library-verify-generation.ts';
import { reconcileBatchesConsumer } from './jobs/reconcile-batches.ts';

/**
 * Every queue consumer the worker runs: one module per queue in consumers/jobs/, added here.
 * Queues whose work is not built yet have no consumer; their jobs wait in the queue.
 */
export const CONSUMERS: readonly Consumer[] = [
  issueBatchConsumer,
  reconcileBatchesConsumer,
  expireBatchesConsumer,
  libraryVerifyGeneration,
  libraryReconcilePendingRuns,
] as readonly Consumer[];
