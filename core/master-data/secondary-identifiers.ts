import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.ts';

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

/** Links new records to their secondary identifiers in one insert (bulk create). */
export const insertSecondaryIdentifiers = async (
  tx: Queryable,
  table: SecondaryTable,
  owners: { ownerId: string; ids?: string[] }[],
): Promise<void> => {
  const rows = owners.flatMap(({ ownerId, ids }) => (ids ?? []).map((identifierId) => ({ ownerId, identifierId })));
  if (rows.length > 0) await tx.insert(table).values(rows as never);
};

/** A record's secondary identifier ids as a column of the record's own query (ordered as below). */
export const secondaryIdsOf = (table: SecondaryTable, ownerId: PgColumn): SQL<string[]> =>
  sql<string[]>`array(select ${table.identifierId} from ${table} where ${table.ownerId} = ${ownerId} order by ${table.identifierId})`;

/** Secondary identifier ids per owner for a page of records, in one query. */
export const secondaryIdsByOwner = async (
  db: Queryable,
  table: SecondaryTable,
  ownerIds: string[],
): Promise<Map<string, string[]>> => {
  const byOwner = new Map<string, string[]>(ownerIds.map((id) => [id, []]));
  if (ownerIds.length === 0) return byOwner;
  const rows = (await db
    .select({ ownerId: table.ownerId, identifierId: table.identifierId })
    .from(table)
    .where(inArray(table.ownerId, ownerIds))
    .orderBy(asc(table.identifierId))) as { ownerId: string; identifierId: string }[];
  for (const row of rows) byOwner.get(row.ownerId)?.push(row.identifierId);
  return byOwner;
};
