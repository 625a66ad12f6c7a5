import { PgBoss } from 'pg-boss';
import type { Logger } from '../logging/logger.ts';
import { parseJobPayload } from './payloads.ts';
import { sqlJobQueue, type JobQueue } from './sql-job-queue.ts';
import { DEFAULT_QUEUE_SETTINGS, queueDefinitions, type QueueDefinition } from './queues.ts';

export type { EnqueueOptions, JobQueue } from './sql-job-queue.ts';

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
 * The producer side of the jobs contract for Node processes (web and CLI import only this): the same
 * plain-SQL enqueue as the edge (sqlJobQueue), after making sure once that pg-boss's schema and the
 * queues it sends to exist, so producing never depends on a worker having run. pg-boss starts for that
 * alone (one connection, no maintenance or schedules; the worker runs those) and stops again.
 */
export const createJobQueue = (databaseUrl: string, logger: Logger): JobQueue => {
  let installed: Promise<void> | undefined;
  const install = () =>
    (installed ??= (async () => {
      const boss = new PgBoss({ connectionString: databaseUrl, max: 1, application_name: 'css-producer', supervise: false, schedule: false });
      boss.on('error', (error) => logger.warn('Job queue connection problem', { error: String(error) }));
      await boss.start();
      try {
        await ensureQueues(boss, queueDefinitions(DEFAULT_QUEUE_SETTINGS));
      } finally {
        await boss.stop({ graceful: false });
      }
    })().catch((error) => {
      installed = undefined; // try again on the next enqueue
      throw error;
    }));
  const queue = sqlJobQueue();
  return {
    enqueue: async (tx, job, options) => {
      parseJobPayload(job.queue, job.payload);
      await install();
      return queue.enqueue(tx, job, options);
    },
    close: async () => {
      await installed?.catch(() => undefined);
    },
  };
};
