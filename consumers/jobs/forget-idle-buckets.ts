import { QUEUE_NAMES } from '../../core/jobs/queues.ts';
import { forgetIdleBuckets } from '../../core/limits/client-rate-limit.ts';
import { defineConsumer } from '../consumer.ts';

/**
 * Every minute, forgets the rate limits' idle token buckets, LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE per
 * statement. A bucket may go after 2 minutes idle; a sweep each minute keeps `client_rate_buckets` at about
 * three minutes of clients, as near as the one-request-in-64 sweep that admission used to run kept it.
 */
export const forgetIdleBucketsConsumer = defineConsumer({
  queue: QUEUE_NAMES.forgetIdleBuckets,
  cron: () => '* * * * *',
  handle: async (deps) => {
    await forgetIdleBuckets(deps.db, deps.settings.reconcileBatchSize, deps.stopping);
  },
});
