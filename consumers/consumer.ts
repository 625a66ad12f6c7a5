import type { PgBoss } from 'pg-boss';
import type { Deps } from '../core/deps.ts';
import { parseJobPayload, type JobPayload } from '../core/jobs/payloads.ts';
import type { QueueName } from '../core/jobs/queues.ts';
import type { WorkerSettings } from '../core/settings/worker-settings.ts';
import type { JobsInFlight } from './jobs-in-flight.ts';

export type WorkerDeps = Deps<WorkerSettings>;

/** The job as a handler sees it: its id (for logs) and its parsed payload. */
export interface ConsumedJob<Q extends QueueName> {
  id: string;
  payload: JobPayload<Q>;
}

/**
 * One queue's handler (`consumers/jobs/<queue>.ts`): load state, do one step, record the outcome in
 * the same transaction as the state change. Throwing fails the job; pg-boss retries it by the
 * queue's policy (core/jobs/queues.ts).
 */
export interface Consumer<Q extends QueueName = QueueName> {
  queue: Q;
  handle(deps: WorkerDeps, job: ConsumedJob<Q>): Promise<void>;
}

/** Typed constructor, so `handle` sees its queue's payload type. */
export const defineConsumer = <Q extends QueueName>(consumer: Consumer<Q>): Consumer<Q> => consumer;

/** Runs one job through its consumer: the payload is parsed first, so a malformed job fails naming the field. */
export const consume = async <Q extends QueueName>(consumer: Consumer<Q>, deps: WorkerDeps, id: string, data: unknown): Promise<void> =>
  consumer.handle(deps, { id, payload: parseJobPayload(consumer.queue, data) });

/** Subscribes each consumer to its queue, one job at a time per consumer; `inFlight` sees every job start and end. */
export const registerConsumers = async (
  boss: PgBoss,
  deps: WorkerDeps,
  consumers: readonly Consumer[],
  inFlight?: JobsInFlight,
): Promise<void> => {
  for (const consumer of consumers) {
    await boss.work(consumer.queue, { batchSize: 1 }, async ([job]) => {
      if (!job) return;
      inFlight?.start(job.id);
      try {
        await consume(consumer, deps, job.id, job.data);
      } catch (error) {
        deps.logger.warn('Job failed', { queue: consumer.queue, jobId: job.id, error: String(error) });
        throw error;
      } finally {
        inFlight?.end(job.id);
      }
    });
  }
};
