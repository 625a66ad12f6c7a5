import { inSpan, underTraceContext } from '../core/tracing/trace-context.ts';
import type { PgBoss } from 'pg-boss';
import { errorFields } from '../core/logging/error-fields.ts';
import type { Deps } from '../core/deps.ts';
import type { JobQueue } from '../core/jobs/job-queue.ts';
import { parseJobPayload, type JobPayload } from '../core/jobs/payloads.ts';
import type { QueueName } from '../core/jobs/queues.ts';
import type { WorkerSettings } from '../core/settings/worker-settings.ts';
import type { JobsInFlight } from './jobs-in-flight.ts';

/** The core deps plus the worker's producer side, for the jobs a consumer enqueues (continuations). */
export type WorkerDeps = Deps<WorkerSettings> & {
  jobs: JobQueue;
  /** Aborted when the worker begins to stop: a job of many steps ends after its current one and leaves the rest to a continuation. */
  stopping?: AbortSignal;
};

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
  /** Jobs of this queue run in parallel per process (default 1). */
  concurrency?(settings: WorkerSettings): number;
  /** A scheduled sweep: the cron (UTC) its empty job is sent on. */
  cron?(settings: WorkerSettings): string;
  /**
   * Jobs each fetch takes (default 1), handled side by side. While fetches come back full the worker
   * fetches again at once instead of waiting out pg-boss's polling interval, so a backlog drains at the
   * speed of the work. A failing job fails its whole batch: only for handlers that may run twice.
   */
  batchSize?(settings: WorkerSettings): number;
}

/** Typed constructor, so `handle` sees its queue's payload type. */
export const defineConsumer = <Q extends QueueName>(consumer: Consumer<Q>): Consumer<Q> => consumer;

/**
 * Runs one job through its consumer: the payload is parsed first, so a malformed job fails naming the field.
 * The producer's trace context (`traceparent`, `tracestate` beside the payload) makes the job a span of its trace.
 */
export const consume = async <Q extends QueueName>(consumer: Consumer<Q>, deps: WorkerDeps, id: string, data: unknown): Promise<void> => {
  const { traceparent, tracestate, ...payload } = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const parsed = parseJobPayload(consumer.queue, data && typeof data === 'object' ? payload : data);
  return underTraceContext({ traceparent, tracestate }, () => inSpan(`job ${consumer.queue}`, () => consumer.handle(deps, { id, payload: parsed }), { 'css.job_id': id }));
};

/** Subscribes each consumer to its queue, one job at a time per worker, `concurrency` workers per consumer; `inFlight` sees every job start and end. */
export const registerConsumers = async (
  boss: PgBoss,
  deps: WorkerDeps,
  consumers: readonly Consumer[],
  inFlight?: JobsInFlight,
): Promise<void> => {
  for (const consumer of consumers) {
    const localConcurrency = consumer.concurrency?.(deps.settings) ?? 1;
    const batchSize = consumer.batchSize?.(deps.settings) ?? 1;
    await boss.work(consumer.queue, { batchSize, localConcurrency, burstWhenBatchFull: batchSize > 1 }, async (jobs) => {
      await Promise.all(
        jobs.map(async (job) => {
          inFlight?.start(job.id);
          try {
            await consume(consumer, deps, job.id, job.data);
          } catch (error) {
            deps.logger.warn('Job failed', { queue: consumer.queue, jobId: job.id, ...errorFields(error) });
            throw error;
          } finally {
            inFlight?.end(job.id);
          }
        }),
      );
    });
  }
};

/** Sends each sweep's empty job on its cron (pg-boss keeps one schedule per queue, so restarts replace it). */
export const scheduleSweeps = async (boss: PgBoss, settings: WorkerSettings, consumers: readonly Consumer[]): Promise<void> => {
  for (const consumer of consumers) {
    const cron = consumer.cron?.(settings);
    if (cron) await boss.schedule(consumer.queue, cron, {}, { tz: 'UTC' });
  }
};
