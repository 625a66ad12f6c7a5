import { sql, type SQL } from 'drizzle-orm';
import type { QueueName } from './queues.ts';

/**
 * True (as SQL) while a job of `queue` whose payload has the given values is still going to run:
 * created, waiting for a retry, or active. pg-boss keeps jobs in `pgboss.job`; this is the one place
 * that reads it, so a sweep can tell a lost piece of work from one merely waiting for a worker.
 */
export const liveJobExists = (queue: QueueName, payload: Record<string, SQL>): SQL =>
  sql`exists (select 1 from pgboss.job j where j.name = ${queue} and j.state in ('created', 'retry', 'active') and ${sql.join(
    Object.entries(payload).map(([key, value]) => sql`j.data->>${key} = (${value})::text`),
    sql` and `,
  )})`;
