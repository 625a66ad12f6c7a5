import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.ts';
import { notFoundAt } from '../errors.ts';

/**
 * Rows of the tenant's own records referenced from a request body (organisations, facilities,
 * parents), locked (share) for the rest of the transaction so they cannot be deleted underneath the
 * write. A missing or foreign id is the same 404, naming the field.
 */
export const lockOwnRecords = async <T extends Record<string, unknown>>(
  tx: Queryable,
  table: PgTable & { id: PgColumn; tenantId: PgColumn },
  tenantId: string,
  refs: { field: string; id: string }[],
  what: string,
  columns: Record<keyof T, PgColumn>,
): Promise<Map<string, T>> => {
  if (refs.length === 0) return new Map();
  const ids = [...new Set(refs.map((r) => r.id))];
  const rows = (await tx
    .select({ ...columns, __id: table.id })
    .from(table)
    .where(and(eq(table.tenantId, tenantId), inArray(table.id, ids)))
    .for('share')) as (T & { __id: string })[];
  const byId = new Map(rows.map((r) => [r.__id, r as T]));
  const missing = refs.find((r) => !byId.has(r.id));
  if (missing) throw notFoundAt(missing.field, what);
  return byId;
};
