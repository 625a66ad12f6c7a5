import { batchItemIssuer, classifyAttemptFailure } from '../../core/batches/batch-issuance.ts';
import { processBatch } from '../../core/batches/process-batch.ts';
import { QUEUE_NAMES } from '../../core/jobs/queues.ts';
import { defineConsumer } from '../consumer.ts';

/** Issues a batch's items (spec "Batch item state"); BATCH_JOB_CONCURRENCY batches at once per process. */
export const issueBatchConsumer = defineConsumer({
  queue: QUEUE_NAMES.issueBatch,
  concurrency: (settings) => settings.batchConcurrency,
  handle: async (deps, job) => {
    const { settings } = deps;
    await processBatch(
      {
        db: deps.db,
        box: deps.secretBox,
        logger: deps.logger,
        jobs: deps.jobs,
        issueItem: batchItemIssuer(deps),
        classify: classifyAttemptFailure,
        stopping: deps.stopping,
        policy: {
          retryLimit: settings.batchRetryLimit,
          backoffSeconds: settings.batchRetryBackoffSeconds,
          backoffMaxSeconds: settings.batchRetryBackoffMaxSeconds,
          jobTimeoutSeconds: settings.jobTimeoutSeconds,
          retentionDays: settings.retentionDays,
        },
      },
      job.payload.tenantId,
      job.payload.batchId,
    );
  },
});
