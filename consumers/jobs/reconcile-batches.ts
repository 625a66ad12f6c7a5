import { reconcileBatches } from '../../core/batches/reconcile-batches.ts';
import { QUEUE_NAMES } from '../../core/jobs/queues.ts';
import { defineConsumer } from '../consumer.ts';

/** Settles batches a crashed worker abandoned; runs on LIBRARY_RECONCILE_PENDING_RUNS_CRON (spec "Worker settings"). */
export const reconcileBatchesConsumer = defineConsumer({
  queue: QUEUE_NAMES.reconcileBatches,
  cron: (settings) => settings.reconcileCron,
  handle: async (deps) => {
    await reconcileBatches({
      db: deps.db,
      logger: deps.logger,
      jobs: deps.jobs,
      jobTimeoutSeconds: deps.settings.jobTimeoutSeconds,
      retentionDays: deps.settings.retentionDays,
      batchSize: deps.settings.reconcileBatchSize,
    });
  },
});
