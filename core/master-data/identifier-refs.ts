import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.ts';
import { identifiers } from '../../db/schema/index.ts';
import { badRequest, conflict, notFoundAt } from '../errors.ts';

/**
 * The identifier rules shared by organisations, facilities and products: a primary identifier is not
 * also secondary, secondary ids are unique, every referenced identifier is the tenant's own (404
 * otherwise, the same answer for missing and foreign), and an identifier is primary on at most one
 * record of each kind (409).
 */
export interface IdentifierRefs {
  primaryIdentifierId?: string | null;
  secondaryIdentifierIds?: string[];
}

/** Prefix of field names in messages: `[2].` inside a bulk request, empty otherwise. */
export type FieldPrefix = string;

export const assertRefsConsistent = (refs: IdentifierRefs, prefix: FieldPrefix = ''): void => {
  const secondary = refs.secondaryIdentifierIds ?? [];
  if (new Set(secondary).size !== secondary.length) {
    throw badRequest(`${prefix}secondaryIdentifierIds: must not contain duplicate ids`);
  }
  if (refs.primaryIdentifierId && secondary.includes(refs.primaryIdentifierId)) {
    throw badRequest(`${prefix}secondaryIdentifierIds: must not contain the primaryIdentifierId`);
  }
};

/**
 * Every referenced identifier exists and is the tenant's own; locked (share) until the transaction
 * ends so a concurrent delete cannot slip between the check and the write.
 */
export const assertOwnIdentifiers = async (
  tx: Queryable,
  tenantId: string,
  refs: { field: string; id: string }[],
): Promise<void> => {
  if (refs.length === 0) return;
  const ids = [...new Set(refs.map((r) => r.id))];
  const found = await tx
    .select({ id: identifiers.id })
    .from(identifiers)
    .where(and(eq(identifiers.tenantId, tenantId), inArray(identifiers.id, ids)))
    .for('share');
  const known = new Set(found.map((r) => r.id));
  const missing = refs.find((r) => !known.has(r.id));
  if (missing) throw notFoundAt(missing.field, 'identifier');
};

/** The field/id pairs an input references, for `assertOwnIdentifiers`. */
export const referencedIdentifiers = (refs: IdentifierRefs, prefix: FieldPrefix = '') => [
  ...(refs.primaryIdentifierId ? [{ field: `${prefix}primaryIdentifierId`, id: refs.primaryIdentifierId }] : []),
  ...(refs.secondaryIdentifierIds ?? []).map((id, i) => ({ field: `${prefix}secondaryIdentifierIds[${i}]`, id })),
];

export const primaryInUse = (field: string, kind: string) =>
  conflict(
    `${field}: the identifier is already the primary identifier of another ${kind}`,
    'PRIMARY_IDENTIFIER_IN_USE',
  );

/** 409 when the identifier is already primary on another record of this kind (any tenant: it is unique). */
export const assertPrimaryFree = async (
  tx: Queryable,
  table: PgTable & { id: PgColumn; primaryIdentifierId: PgColumn },
  kind: string,
  primaryIdentifierId: string,
  field: string,
  exceptId?: string,
): Promise<void> => {
  const condition: SQL | undefined = and(
    eq(table.primaryIdentifierId, primaryIdentifierId),
    exceptId ? ne(table.id, exceptId) : undefined,
  );
  const [taken] = await tx.select({ id: table.id }).from(table).where(condition).limit(1);
  if (taken) throw primaryInUse(field, kind);
};

/**
 * Bulk form of `assertPrimaryFree`: one query for every item's primary identifier; the 409 names the
 * first item whose identifier is already primary on a record of this kind.
 */
export const assertPrimariesFree = async (
  tx: Queryable,
  table: PgTable & { id: PgColumn; primaryIdentifierId: PgColumn },
  kind: string,
  items: IdentifierRefs[],
): Promise<void> => {
  const wanted = items.flatMap((item) => (item.primaryIdentifierId ? [item.primaryIdentifierId] : []));
  if (wanted.length === 0) return;
  const taken = await tx
    .select({ primaryIdentifierId: table.primaryIdentifierId })
    .from(table)
    .where(inArray(table.primaryIdentifierId, wanted));
  if (taken.length === 0) return;
  const used = new Set(taken.map((r) => r.primaryIdentifierId as string));
  const index = items.findIndex((item) => item.primaryIdentifierId && used.has(item.primaryIdentifierId));
  throw primaryInUse(`[${index}].primaryIdentifierId`, kind);
};

/** Within one bulk request, two items cannot claim the same primary identifier. */
export const assertPrimariesDistinct = (items: IdentifierRefs[], kind: string): void => {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const id = item.primaryIdentifierId;
    if (!id) return;
    if (seen.has(id)) throw primaryInUse(`[${i}].primaryIdentifierId`, kind);
    seen.add(id);
  });
};
