import { and, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { identifiers } from '../../db/schema/index.ts';

/** `%term%` with LIKE's wildcards in the term taken literally. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `search`: case-insensitive substring of the record's name, or of the value of its primary or any
 * secondary identifier. Each way of matching is its own indexable query (trigram indexes on names
 * and identifier values), united into one id set, so PostgreSQL never tests every record of the
 * tenant row by row.
 */
export const searchCondition = (
  term: string,
  tenantId: string,
  record: PgTable & { id: PgColumn; tenantId: PgColumn; name: PgColumn; primaryIdentifierId: PgColumn },
  secondary: PgTable & { ownerId: PgColumn; identifierId: PgColumn },
): SQL => {
  const pattern = containsPattern(term);
  const identifierMatches = and(eq(identifiers.tenantId, tenantId), ilike(identifiers.value, pattern));
  // `= any(array(…))`, not `in (…)`: the id set is computed once and the records are then fetched by
  // primary key; with `in`, PostgreSQL hash-joins the set against a scan of every record of the table.
  return sql`${record.id} = any(array(
    select ${record.id} from ${record} where ${and(eq(record.tenantId, tenantId), ilike(record.name, pattern))}
    union
    select ${record.id} from ${record} join ${identifiers} on ${eq(identifiers.id, record.primaryIdentifierId)}
      where ${identifierMatches}
    union
    select ${secondary.ownerId} from ${secondary} join ${identifiers} on ${eq(identifiers.id, secondary.identifierId)}
      where ${identifierMatches}
  ))`;
};
