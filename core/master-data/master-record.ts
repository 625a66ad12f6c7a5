import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database, Queryable } from '../../db/client.ts';
import { notFound } from '../errors.ts';
import { createId } from '../ids.ts';
import { insertInSteps } from '../limits/bounded-steps.ts';
import {
  assertOwnIdentifiers,
  assertPrimariesDistinct,
  assertPrimariesFree,
  assertPrimaryFree,
  assertRefsConsistent,
  referencedIdentifiers,
  type IdentifierRefs,
} from './identifier-refs.ts';
import { selectPage } from './page-query.ts';
import { searchCondition } from './search.ts';
import { insertSecondaryIdentifiers, replaceSecondaryIdentifiers, secondaryIdsOf, secondaryIdsOfOwner } from './secondary-identifiers.ts';
import { translatePrimaryRace } from './unique-primary.ts';

type MasterTable = PgTable & { id: PgColumn; tenantId: PgColumn; name: PgColumn; primaryIdentifierId: PgColumn; createdAt: PgColumn };

/**
 * One kind of master record (organisation, facility, product): its table, its secondary-identifier
 * join table, and the words its messages use. The flows below are the same for all three; each kind
 * adds only its own reference checks.
 */
export interface MasterKind<T extends MasterTable> {
  /** `Organisation`: the 404 says `Organisation not found`. */
  label: string;
  /** `organisation`: the 409 says `…primary identifier of another organisation`. */
  kind: string;
  table: T;
  secondary: PgTable & { ownerId: PgColumn; identifierId: PgColumn };
}

type Row<T extends MasterTable> = T['$inferSelect'];

const own = <T extends MasterTable>(k: MasterKind<T>, tenantId: string, id: string) =>
  and(eq(k.table.id, id), eq(k.table.tenantId, tenantId));

/**
 * Creates every item or none: identifier rules per item (400/404/409 naming `[i].field`), the kind's
 * own reference checks, then one transaction; a primary claimed concurrently is the same 409.
 */
/** Rows per INSERT, and ids per read-back, of a bulk create: building one statement (or mapping its rows) is a bounded step. */
export const BULK_ROWS_PER_STATEMENT = 100;

/** `read` over `ids` in chunks of BULK_ROWS_PER_STATEMENT (one statement each, awaited in turn). */
export const readInChunks = async <R>(ids: string[], read: (chunk: string[]) => Promise<R[]>): Promise<R[]> => {
  const rows: R[] = [];
  for (let i = 0; i < ids.length; i += BULK_ROWS_PER_STATEMENT) rows.push(...(await read(ids.slice(i, i + BULK_ROWS_PER_STATEMENT))));
  return rows;
};

export const createMasterRecords = async <T extends MasterTable, I extends IdentifierRefs>(
  db: Database,
  k: MasterKind<T>,
  tenantId: string,
  items: I[],
  checkReferences?: (tx: Queryable) => Promise<void>,
): Promise<string[]> => {
  items.forEach((item, i) => assertRefsConsistent(item, `[${i}].`));
  assertPrimariesDistinct(items, k.kind);
  const rows = items.map(({ secondaryIdentifierIds: _, ...columns }) => ({ ...columns, id: createId(), tenantId }));
  try {
    await db.transaction(async (tx) => {
      await checkReferences?.(tx);
      await assertOwnIdentifiers(tx, tenantId, items.flatMap((item, i) => referencedIdentifiers(item, `[${i}].`)));
      await assertPrimariesFree(tx, k.table, k.kind, items);
      await insertInSteps(tx, k.table, rows as never, BULK_ROWS_PER_STATEMENT);
      await insertSecondaryIdentifiers(tx, k.secondary, items.map((item, i) => ({ ownerId: rows[i]!.id, ids: item.secondaryIdentifierIds })));
    });
  } catch (error) {
    throw translatePrimaryRace(error, k.kind);
  }
  return rows.map((r) => r.id);
};

/** The tenant's records, newest first, each with its secondary identifier ids (one statement per page, plus a count without search). */
export const listMasterRecords = async <T extends MasterTable>(
  db: Database,
  k: MasterKind<T>,
  tenantId: string,
  filters: (SQL | undefined)[],
  search: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: (Row<T> & { secondaryIdentifierIds: string[] })[]; total: number }> => {
  const where = and(eq(k.table.tenantId, tenantId), ...filters, search ? searchCondition(search, tenantId, k.table, k.secondary) : undefined);
  return selectPage(db, k.table, where, [desc(k.table.createdAt), desc(k.table.id)], page, {
    inlineCount: Boolean(search),
    extra: { secondaryIdentifierIds: secondaryIdsOf(k.secondary, k.table.id) },
  });
};

/**
 * A PATCH: the row is locked, the identifier rules are checked against the merged state, the kind
 * checks its own references, then stated columns change and a sent secondary set replaces the old.
 */
export const updateMasterRecord = async <T extends MasterTable, P extends IdentifierRefs>(
  db: Database,
  k: MasterKind<T>,
  tenantId: string,
  id: string,
  patch: P,
  checkReferences?: (tx: Queryable, current: Row<T>) => Promise<void>,
): Promise<void> => {
  try {
    await db.transaction(async (tx) => {
      const [current] = (await tx.select().from(k.table as PgTable).where(own(k, tenantId, id)).for('update')) as Row<T>[];
      if (!current) throw notFound(k.label);
      const secondaryIds = patch.secondaryIdentifierIds ?? (await secondaryIdsOfOwner(tx, k.secondary, id));
      const primary = patch.primaryIdentifierId === undefined ? (current as { primaryIdentifierId: string | null }).primaryIdentifierId : patch.primaryIdentifierId;
      assertRefsConsistent({ primaryIdentifierId: primary, secondaryIdentifierIds: secondaryIds });
      await checkReferences?.(tx, current);
      await assertOwnIdentifiers(tx, tenantId, referencedIdentifiers(patch));
      if (patch.primaryIdentifierId) await assertPrimaryFree(tx, k.table, k.kind, patch.primaryIdentifierId, 'primaryIdentifierId', id);
      const { secondaryIdentifierIds, ...columns } = patch;
      await tx.update(k.table).set({ ...columns, updatedAt: new Date() } as never).where(own(k, tenantId, id));
      if (secondaryIdentifierIds) await replaceSecondaryIdentifiers(tx, k.secondary, id, secondaryIdentifierIds);
    });
  } catch (error) {
    throw translatePrimaryRace(error, k.kind);
  }
};

/** Deletes one of the tenant's records; what references it follows its foreign keys. */
export const deleteMasterRecord = async <T extends MasterTable>(db: Database, k: MasterKind<T>, tenantId: string, id: string) => {
  const deleted = await db.delete(k.table).where(own(k, tenantId, id)).returning({ id: k.table.id });
  if (deleted.length === 0) throw notFound(k.label);
};
