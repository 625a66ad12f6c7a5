import { reconcileBatches } from '../../core/batches/reconcile-batches.ts';
import { QUEUE_NAMES } from '../../core/jobs/queues.ts';
import { forgetIdleBuckets } from '../../core/limits/client-rate-limit.ts';
import { defineConsumer } from '../consumer.ts';

/**
 * Settles batches a crashed worker abandoned, and forgets the rate limits' idle token buckets (upkeep of shared
 * state with no queue of its own: the spec lists the worker's queues); runs on LIBRARY_RECONCILE_PENDING_RUNS_CRON
 * (spec "Worker settings"). Each part runs whether the other failed or not; the job fails with the first failure.
 */
export const reconcileBatchesConsumer = defineConsumer({
  queue: QUEUE_NAMES.reconcileBatches,
  cron: (settings) => settings.reconcileCron,
  handle: async (deps) => {
    const parts = await Promise.allSettled([
      reconcileBatches({
        db: deps.db,
        logger: deps.logger,
        jobs: deps.jobs,
        jobTimeoutSeconds: deps.settings.jobTimeoutSeconds,
        retentionDays: deps.settings.retentionDays,
        batchSize: deps.settings.reconcileBatchSize,
      }),
      forgetIdleBuckets(deps.db, deps.settings.reconcileBatchSize, deps.stopping),
    ]);
    const failed = parts.find((part) => part.status === 'rejected');
    if (failed) throw failed.reason;
  },
});
