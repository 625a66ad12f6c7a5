import { sql } from 'drizzle-orm';
import { fromDrizzle, PgBoss } from 'pg-boss';
import type { Queryable } from '../../db/client.ts';
import type { Logger } from '../logging/logger.ts';
import { parseJobPayload, type Job } from './payloads.ts';

export interface JobQueue {
  /**
   * Writes the job in the caller's transaction: it exists exactly when the transaction commits,
   * so a state change and the job that carries it on are never apart. Returns the job id.
   */
  enqueue(tx: Queryable, job: Job): Promise<string>;
  close(): Promise<void>;
}

/**
 * The producer side of the jobs contract (web and CLI import only this). pg-boss writes through the
 * caller's transaction (`send(…, { db })`); its own small pool only reads queue metadata, and it
 * starts on the first enqueue without maintenance or schedules (the worker runs those). Queues are
 * created by the worker; enqueueing to a queue that does not exist yet fails.
 */
export const createJobQueue = (databaseUrl: string, logger: Logger): JobQueue => {
  let started: Promise<PgBoss> | undefined;
  const producer = () =>
    (started ??= (async () => {
      const boss = new PgBoss({ connectionString: databaseUrl, max: 1, application_name: 'css-producer', supervise: false, schedule: false });
      boss.on('error', (error) => logger.warn('Job queue connection problem', { error: String(error) }));
      await boss.start();
      return boss;
    })());
  return {
    enqueue: async (tx, job) => {
      const payload = parseJobPayload(job.queue, job.payload);
      const id = await (await producer()).send(job.queue, payload, { db: fromDrizzle(tx, sql) });
      if (!id) throw new Error(`Job not created in ${job.queue}`);
      return id;
    },
    close: async () => {
      if (started) await (await started).stop({ graceful: false });
    },
  };
};
