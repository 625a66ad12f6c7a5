import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';

/**
 * One page of a table and the total number of matches. With `inlineCount` (costly filters such as
 * `search`) the total comes from the same statement (`count(*) over()`), so the filter runs once per
 * request; otherwise a separate index-only count is cheaper than materialising every match.
 */
export const selectPage = async <T extends PgTable>(
  db: Database,
  table: T,
  where: SQL | undefined,
  orderBy: SQL[],
  page: { limit: number; offset: number },
  inlineCount = false,
): Promise<{ rows: T['$inferSelect'][]; total: number }> => {
  if (!inlineCount) {
    const [rows, [counted]] = await Promise.all([
      db.select().from(table as PgTable).where(where).orderBy(...orderBy).limit(page.limit).offset(page.offset),
      db.select({ total: count() }).from(table as PgTable).where(where),
    ]);
    return { rows: rows as T['$inferSelect'][], total: counted?.total ?? 0 };
  }
  const found = (await db
    .select({ row: table as PgTable, total: sql<number>`count(*) over()`.mapWith(Number) } as never)
    .from(table as PgTable)
    .where(where)
    .orderBy(...orderBy)
    .limit(page.limit)
    .offset(page.offset)) as unknown as { row: T['$inferSelect']; total: number }[];
  if (found.length > 0) return { rows: found.map((f) => f.row), total: found[0]!.total };
  if (page.offset === 0) return { rows: [], total: 0 };
  const [counted] = await db.select({ total: count() }).from(table as PgTable).where(where);
  return { rows: [], total: counted?.total ?? 0 };
};
