import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { concurrencyLeases } from '../../db/schema/index.ts';
import { prepared } from '../prepared-queries.ts';

/**
 * At most `limit` holders of `scope` at once across every web process and edge isolate (leases in
 * PostgreSQL, `concurrency_leases`): a caller that finds them all taken is refused at once, never
 * queued. The SQL function `limits_enter_concurrency` (migration 0019) takes a transaction-scoped
 * advisory lock on the scope before counting, so two callers never both see the last free slot; one
 * statement, one round trip. A lease ends when its holder leaves, or at `leaseSeconds` should the
 * holder's process die first (expired leases no longer count and are cleared by the next caller).
 * Returns the lease id to leave with, or undefined when refused.
 */
export const enterConcurrency = async (db: Queryable, scope: string, limit: number, leaseSeconds: number): Promise<string | undefined> => {
  const [row] = await db.execute<{ lease: string | null }>(sql`select limits_enter_concurrency(${scope}, ${limit}::integer, ${leaseSeconds}::float8) as lease`);
  return row!.lease ?? undefined;
};

/** Ends a lease (every admitted verification does, so the statement is prepared). */
export const leaveConcurrency = async (db: Queryable, leaseId: string): Promise<void> => {
  await prepared(db, 'limits.leave', (d) => d.delete(concurrencyLeases).where(eq(concurrencyLeases.id, sql.placeholder('id'))).prepare('limits_leave')).execute({ id: leaseId });
};
