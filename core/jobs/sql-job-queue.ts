import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { pgErrorCode } from '../db-errors.ts';
import { traceHeaders } from '../tracing/trace-context.ts';
import { parseJobPayload, type Job } from './payloads.ts';
import type { QueueName } from './queues.ts';

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

/** pg-boss's schema (its default, which every process here uses). */
const BOSS_SCHEMA = 'pgboss';

/** A queue as a producer needs it: the table pg-boss keeps its jobs in. */
type QueueRow = { table_name: string };

/**
 * The enqueue itself, as plain SQL in the caller's transaction: the row pg-boss's own `send` writes
 * (its `insertJobs` for one job: the queue's retry, expiry, retention and policy, `job_now()` as the
 * clock, `on conflict do nothing` for singleton queues), so the worker's pg-boss drains it as its own.
 * No pg-boss, no pool and nothing Node-only here, so it runs on edge runtimes too. The queues must exist
 * (the worker, or a Node producer's first enqueue, creates them); a missing one is named in the error.
 */
export const sqlJobQueue = (): JobQueue => {
  const tables = new Map<string, string>();
  const tableOf = async (tx: Queryable, queue: QueueName): Promise<string> => {
    const known = tables.get(queue);
    if (known) return known;
    let rows: QueueRow[];
    try {
      rows = [...(await tx.execute<QueueRow>(sql`select table_name from ${sql.identifier(BOSS_SCHEMA)}.queue where name = ${queue}`))];
    } catch (error) {
      if (pgErrorCode(error) === '42P01') throw new Error(`Job queue ${queue} is not set up: start the worker once (it installs the queues)`);
      throw error;
    }
    if (!rows[0]) throw new Error(`Job queue ${queue} is not set up: start the worker once (it installs the queues)`);
    tables.set(queue, rows[0].table_name);
    return rows[0].table_name;
  };
  return {
    enqueue: async (tx, job, options = {}) => {
      // The producer's trace context rides along (`traceparent`, none when tracing is off): the job continues its trace.
      const payload = { ...parseJobPayload(job.queue, job.payload), ...traceHeaders() };
      const table = await tableOf(tx, job.queue);
      const boss = sql.identifier(BOSS_SCHEMA);
      const startAfter = options.startAfter ? options.startAfter.toISOString() : null;
      const rows = await tx.execute<{ id: string }>(sql`
        insert into ${boss}.${sql.identifier(table)} (
          id, name, data, priority, start_after, created_on, expire_seconds, deletion_seconds, keep_until,
          retry_limit, retry_delay, retry_backoff, retry_delay_max, policy, dead_letter, heartbeat_seconds,
          blocked, blocking, pending_dependencies)
        select gen_random_uuid(), q.name, ${JSON.stringify(payload)}::jsonb, 0, s.start_after, ${boss}.job_now(),
          coalesce(${options.expireInSeconds ?? null}::integer, q.expire_seconds), q.deletion_seconds,
          s.start_after + q.retention_seconds * interval '1s',
          q.retry_limit, q.retry_delay, coalesce(q.retry_backoff, false), q.retry_delay_max, q.policy, q.dead_letter,
          q.heartbeat_seconds, false, false, 0
        from ${boss}.queue q, (select coalesce(${startAfter}::timestamptz, ${boss}.job_now()) as start_after) s
        where q.name = ${job.queue}
        on conflict do nothing
        returning id`);
      const id = rows[0]?.id;
      if (!id) throw new Error(`Job not created in ${job.queue}`);
      return id;
    },
    close: async () => {},
  };
};
