import { sql, type SQL } from 'drizzle-orm';
import type { QueueName } from './queues.ts';

/**
 * True (as SQL) while a job of `queue` whose payload has the given values is still going to run:
 * created, waiting for a retry, or active within its expiry. An active job past its expiry belongs to
 * a worker that died (or hung) holding it. pg-boss keeps jobs in `pgboss.job`; this is the one place
 * that reads it, so a sweep can tell lost work from work merely waiting for a worker.
 */
export const liveJobExists = (queue: QueueName, payload: Record<string, SQL>): SQL =>
  sql`exists (select 1 from pgboss.job j where j.name = ${queue} and ${sql.join(
    Object.entries(payload).map(([key, value]) => sql`j.data->>${key} = (${value})::text`),
    sql` and `,
  )} and (j.state in ('created', 'retry') or (j.state = 'active' and j.started_on + make_interval(secs => j.expire_seconds) > now())))`;
