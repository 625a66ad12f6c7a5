import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/**
 * At most `limit` holders of `scope` at once across every web process and edge isolate (leases in
 * PostgreSQL, `concurrency_leases`): a caller that finds them all taken is refused at once, never
 * queued. Entering takes a transaction-scoped advisory lock on the scope, so two callers never both
 * see the last free slot. A lease ends when its holder leaves, or at `leaseSeconds` should the holder's
 * process die first (expired leases no longer count and are cleared by the next caller).
 * Returns the lease id to leave with, or undefined when refused.
 */
export const enterConcurrency = (db: Database, scope: string, limit: number, leaseSeconds: number): Promise<string | undefined> =>
  db.transaction(async (tx) => {
    // The lock and the insert go to PostgreSQL together (one pipeline on the transaction's connection):
    // it runs them in order, and the insert's snapshot is taken after the lock is held, so it counts
    // every lease committed before.
    const locked = tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`concurrency:${scope}`}))`);
    const entered = tx.execute<{ id: string }>(sql`
      with cleared as (delete from concurrency_leases where scope = ${scope} and expires_at <= now())
      insert into concurrency_leases (scope, expires_at)
      select ${scope}, now() + ${leaseSeconds} * interval '1 second'
      where (select count(*) from concurrency_leases where scope = ${scope} and expires_at > now()) < ${limit}
      returning id`);
    const [, [lease]] = await Promise.all([locked, entered]);
    return lease?.id;
  });

export const leaveConcurrency = async (db: Database, leaseId: string): Promise<void> => {
  await db.execute(sql`delete from concurrency_leases where id = ${leaseId}`);
};
