import { traceHeaders } from '../tracing/trace-context.ts';
import { sql } from 'drizzle-orm';
import { fromDrizzle, PgBoss } from 'pg-boss';
import type { Queryable } from '../../db/client.ts';
import type { Logger } from '../logging/logger.ts';
import { parseJobPayload, type Job } from './payloads.ts';
import { DEFAULT_QUEUE_SETTINGS, queueDefinitions, type QueueDefinition, type QueueName } from './queues.ts';

export interface EnqueueOptions {
  /** Not before this instant (a deferred continuation). */
  startAfter?: Date;
  /** This job's own expiry, overriding the queue's (the first batch job carries the web process's job timeout). */
  expireInSeconds?: number;
}

export interface JobQueue {
  /**
   * Writes the job in the caller's transaction: it exists exactly when the transaction commits,
   * so a state change and the job that carries it on are never apart. Returns the job id.
   */
  enqueue(tx: Queryable, job: Job, options?: EnqueueOptions): Promise<string>;
  close(): Promise<void>;
}

/**
 * Creates the given queues that do not exist yet, with their policies (pg-boss fixes a policy at
 * creation). `update` also brings existing queues' retry and expiry settings up to date: the
 * worker does, a producer leaves them as the worker set them.
 */
export const ensureQueues = async (boss: PgBoss, definitions: QueueDefinition[], update = false): Promise<void> => {
  const existing = new Set((await boss.getQueues(definitions.map((d) => d.name))).map((q) => q.name));
  for (const { name, ...options } of definitions) {
    const { policy: _fixed, ...settable } = options;
    if (existing.has(name)) {
      if (update) await boss.updateQueue(name, settable);
      continue;
    }
    try {
      await boss.createQueue(name, options);
    } catch (error) {
      // Another process created it between our look and our create: that is the outcome we wanted.
      if (!(await boss.getQueue(name))) throw error;
    }
  }
};

/**
 * The producer side of the jobs contract (web and CLI import only this). pg-boss writes through the
 * caller's transaction (`send(…, { db })`); its own small pool only reads queue metadata, and it
 * starts on the first enqueue without maintenance or schedules (the worker runs those). On that
 * first start it creates the queues it sends to when missing, so producing never depends on a
 * worker having run.
 */
export const createJobQueue = (databaseUrl: string, logger: Logger): JobQueue => {
  let started: Promise<PgBoss> | undefined;
  const producer = () =>
    (started ??= (async () => {
      const boss = new PgBoss({ connectionString: databaseUrl, max: 1, application_name: 'css-producer', supervise: false, schedule: false });
      boss.on('error', (error) => logger.warn('Job queue connection problem', { error: String(error) }));
      await boss.start();
      await ensureQueues(boss, queueDefinitions(DEFAULT_QUEUE_SETTINGS));
      return boss;
    })().catch((error) => {
      started = undefined; // try again on the next enqueue
      throw error;
    }));
  return {
    enqueue: async (tx, job, options = {}) => {
      // The producer's trace context rides along (`traceparent`, none when tracing is off): the job continues its trace.
      const payload = { ...parseJobPayload(job.queue, job.payload), ...traceHeaders() };
      const id = await (await producer()).send(job.queue as QueueName, payload, { db: fromDrizzle(tx, sql), ...options });
      if (!id) throw new Error(`Job not created in ${job.queue}`);
      return id;
    },
    close: async () => {
      if (started) await (await started.catch(() => undefined))?.stop({ graceful: false });
    },
  };
};
