import { expireBatches } from '../../core/batches/expire-batches.ts';
import { expirySweepCron, QUEUE_NAMES } from '../../core/jobs/queues.ts';
import { defineConsumer } from '../consumer.ts';

/** Turns settled batches past retention into tombstones; runs every BATCH_EXPIRY_SWEEP_MINUTES. */
export const expireBatchesConsumer = defineConsumer({
  queue: QUEUE_NAMES.expireBatches,
  cron: (settings) => expirySweepCron(settings.expirySweepMinutes),
  handle: async (deps) => {
    await expireBatches({ db: deps.db, logger: deps.logger, batchSize: deps.settings.reconcileBatchSize });
  },
});
