import { and, eq, exists, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { identifiers } from '../../db/schema/index.ts';

/** `%term%` with LIKE's wildcards in the term taken literally. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `search`: case-insensitive substring of the record's name, or of the value of its primary or any
 * secondary identifier (trigram indexes on names and identifier values serve it).
 */
export const searchCondition = (
  term: string,
  record: { name: PgColumn; primaryIdentifierId: PgColumn; id: PgColumn },
  secondary: PgTable & { ownerId: PgColumn; identifierId: PgColumn },
): SQL => {
  const pattern = containsPattern(term);
  return or(
    ilike(record.name, pattern),
    exists(
      sql`(select 1 from ${identifiers} where ${identifiers.id} = ${record.primaryIdentifierId} and ${ilike(identifiers.value, pattern)})`,
    ),
    exists(
      sql`(select 1 from ${secondary} join ${identifiers} on ${eq(identifiers.id, secondary.identifierId)} where ${and(
        eq(secondary.ownerId, record.id),
        ilike(identifiers.value, pattern),
      )})`,
    ),
  ) as SQL;
};
