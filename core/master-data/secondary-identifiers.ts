import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.ts';
import { insertInSteps } from '../limits/bounded-steps.ts';

type SecondaryTable = PgTable & { ownerId: PgColumn; identifierId: PgColumn };

/** Replaces a record's secondary identifiers with exactly `ids` (an empty array clears them). */
export const replaceSecondaryIdentifiers = async (
  tx: Queryable,
  table: SecondaryTable,
  ownerId: string,
  ids: string[],
): Promise<void> => {
  await tx.delete(table).where(eq(table.ownerId, ownerId));
  if (ids.length > 0) await tx.insert(table).values(ids.map((identifierId) => ({ ownerId, identifierId })) as never);
};

/** Links per INSERT: a link is two ids, so a bulk create's links are written in bounded steps of many. */
const ROWS_PER_INSERT = 500;

/** Links new records to their secondary identifiers (bulk create), ROWS_PER_INSERT to a statement. */
export const insertSecondaryIdentifiers = async (
  tx: Queryable,
  table: SecondaryTable,
  owners: { ownerId: string; ids?: string[] }[],
): Promise<void> => {
  const rows = owners.flatMap(({ ownerId, ids }) => (ids ?? []).map((identifierId) => ({ ownerId, identifierId })));
  await insertInSteps(tx, table, rows as never, ROWS_PER_INSERT);
};

/**
 * A record's secondary identifier ids, in identifier id order, as a value inside another statement:
 * `owner` is the owning record's id column (a page of records) or one record's id.
 */
export const secondaryIdsOf = (table: SecondaryTable, owner: PgColumn | string): SQL<string[]> =>
  sql<string[]>`array(select ${table.identifierId} from ${table} where ${table.ownerId} = ${owner} order by ${table.identifierId})`;

/** One record's secondary identifier ids. */
export const secondaryIdsOfOwner = async (db: Queryable, table: SecondaryTable, ownerId: string): Promise<string[]> => {
  const [row] = await db.execute<{ ids: string[] }>(sql`select ${secondaryIdsOf(table, ownerId)} as ids`);
  return row?.ids ?? [];
};
