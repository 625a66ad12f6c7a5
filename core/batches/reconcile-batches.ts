import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { liveJobExists } from '../jobs/live-jobs.ts';
import { QUEUE_NAMES } from '../jobs/queues.ts';
import type { Logger } from '../logging/logger.ts';
import { lockTenantBatch, type BatchRow } from './batch-repository.ts';
import { settleIfDone } from './batch-settlement.ts';
import { ABANDONED_MESSAGE, ITEM_CODES, markProcessingUnknown } from './item-outcome.ts';

export interface ReconcileDeps {
  db: Database;
  logger: Logger;
  jobs: JobQueue;
  jobTimeoutSeconds: number;
  retentionDays: number;
  batchSize: number;
}

/**
 * Open batches (QUEUED or RUNNING) whose last progress is older than twice the job timeout and
 * for which no issuance job is waiting, retrying or running within its expiry: their job was lost (a
 * crashed worker, a job that exhausted its retries).
 */
const staleBatchesSql = (jobTimeoutSeconds: number, limit: number) => sql`
  select b.id, b.tenant_id as "tenantId"
  from credential_batches b
  where b.state in ('QUEUED', 'RUNNING')
    and b.last_progress_at < now() - make_interval(secs => ${2 * jobTimeoutSeconds})
    and not ${liveJobExists(QUEUE_NAMES.issueBatch, { batchId: sql`b.id` })}
  order by b.last_progress_at
  limit ${limit}`;

const stillStale = (batch: BatchRow, jobTimeoutSeconds: number) =>
  (batch.state === 'QUEUED' || batch.state === 'RUNNING') && batch.lastProgressAt.getTime() < Date.now() - 2 * jobTimeoutSeconds * 1000;

/**
 * The `credentials.reconcile-batches` sweep (spec "Batch state", reconciliation row): an ordinary
 * stale batch gets a continuation job; a batch whose cancellation was requested gets none: the
 * attempt it abandoned becomes OUTCOME_UNKNOWN and the batch settles without issuing anything.
 * Returns what it did, for the log.
 */
export const reconcileBatches = async (deps: ReconcileDeps): Promise<{ continued: string[]; settled: string[] }> => {
  const stale = await deps.db.execute<{ id: string; tenantId: string }>(staleBatchesSql(deps.jobTimeoutSeconds, deps.batchSize));
  const continued: string[] = [];
  const settled: string[] = [];
  for (const { id, tenantId } of stale) {
    await deps.db.transaction(async (tx) => {
      const batch = await lockTenantBatch(tx, tenantId, id);
      if (!batch || !stillStale(batch, deps.jobTimeoutSeconds)) return;
      if (!batch.cancelRequestedAt) {
        await deps.jobs.enqueue(tx, { queue: QUEUE_NAMES.issueBatch, payload: { tenantId, batchId: id } });
        continued.push(id);
        deps.logger.warn('Stale batch: continuation queued', { batchId: id, correlationId: batch.correlationId });
        return;
      }
      const { moved: abandoned, batch: latest } = await markProcessingUnknown(tx, batch, ITEM_CODES.abandoned, ABANDONED_MESSAGE);
      const done = await settleIfDone(tx, latest, deps.retentionDays);
      if (done) {
        settled.push(id);
        deps.logger.warn('Stale cancelled batch settled without issuance', { batchId: id, state: done.state, abandoned: abandoned.length });
      }
    });
  }
  return { continued, settled };
};
