import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';

/** A row of the table with the values of `extra` beside its columns. */
type PageRow<T extends PgTable, E extends Record<string, SQL>> = T['$inferSelect'] & { [K in keyof E]: E[K]['_']['type'] };

/**
 * One page of a table and the total number of matches, each row with the `extra` values computed
 * alongside it (correlated subqueries, so a page costs no further round trip). With `inlineCount`
 * (costly filters such as `search`) the total comes from the same statement (`count(*) over()`), so
 * the filter runs once per request; otherwise a separate index-only count is cheaper than
 * materialising every match.
 */
export const selectPage = async <T extends PgTable, E extends Record<string, SQL>>(
  db: Database,
  table: T,
  where: SQL | undefined,
  orderBy: SQL[],
  page: { limit: number; offset: number },
  options: { inlineCount?: boolean; extra?: E } = {},
): Promise<{ rows: PageRow<T, E>[]; total: number }> => {
  type Found = { row: T['$inferSelect']; total?: number } & Record<string, unknown>;
  const extra = options.extra ?? ({} as E);
  const withExtra = (found: Found[]) => found.map(({ row, total: _, ...values }) => ({ ...row, ...values }) as PageRow<T, E>);
  const pageOf = (selection: Record<string, unknown>) =>
    db
      .select(selection as never)
      .from(table as PgTable)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset) as unknown as Promise<Found[]>;

  if (!options.inlineCount) {
    const [found, [counted]] = await Promise.all([
      pageOf({ row: table, ...extra }),
      db.select({ total: count() }).from(table as PgTable).where(where),
    ]);
    return { rows: withExtra(found), total: counted?.total ?? 0 };
  }
  const found = await pageOf({ row: table, ...extra, total: sql<number>`count(*) over()`.mapWith(Number) });
  if (found.length > 0) return { rows: withExtra(found), total: found[0]!.total! };
  if (page.offset === 0) return { rows: [], total: 0 };
  const [counted] = await db.select({ total: count() }).from(table as PgTable).where(where);
  return { rows: [], total: counted?.total ?? 0 };
};
