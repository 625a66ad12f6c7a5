import { QUEUE_NAMES } from '../../core/jobs/queues.ts';
import { reconcilePendingRuns } from '../../core/library/reconcile-pending-runs.ts';
import { defineConsumer } from '../consumer.ts';

/** library.reconcile-pending-runs: on LIBRARY_RECONCILE_PENDING_RUNS_CRON, settles lost pending generations. */
export const libraryReconcilePendingRuns = defineConsumer({
  queue: QUEUE_NAMES.reconcilePendingRuns,
  cron: (settings) => settings.reconcileCron,
  handle: async (deps) => {
    await reconcilePendingRuns(deps.db, deps.logger, deps.settings.reconcileBatchSize);
  },
});
