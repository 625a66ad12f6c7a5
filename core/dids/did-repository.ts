import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { dids, type DidStatus, type DidType } from '../../db/schema/index.ts';
import { isUniqueViolation, violatedConstraint } from '../db-errors.ts';
import { conflict, notFound } from '../errors.ts';
import { assertWritable, visibleTo } from '../tenancy/visibility.ts';

export type DidRow = typeof dids.$inferSelect;
export type NewDid = typeof dids.$inferInsert;

export interface DidFilter {
  type?: DidType;
  status?: DidStatus;
  serviceInstanceId?: string;
}

/** The tenant's DIDs plus the system DEFAULT, newest first. */
export const listDids = async (db: Database, tenantId: string, filter: DidFilter, page: { limit: number; offset: number }) => {
  const where = and(
    visibleTo(dids.tenantId, tenantId),
    filter.type ? eq(dids.type, filter.type) : undefined,
    filter.status ? eq(dids.status, filter.status) : undefined,
    filter.serviceInstanceId ? eq(dids.serviceInstanceId, filter.serviceInstanceId) : undefined,
  );
  const [rows, [counted]] = await Promise.all([
    db.select().from(dids).where(where).orderBy(desc(dids.createdAt), desc(dids.id)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(dids).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
};

export const findVisibleDid = async (db: Queryable, tenantId: string, id: string): Promise<DidRow | undefined> => {
  const [row] = await db.select().from(dids).where(and(eq(dids.id, id), visibleTo(dids.tenantId, tenantId)));
  return row;
};

export const loadVisibleDid = async (db: Queryable, tenantId: string, id: string): Promise<DidRow> => {
  const row = await findVisibleDid(db, tenantId, id);
  if (!row) throw notFound('DID');
  return row;
};

/** A tenant-owned DID (404 for missing or foreign, 403 for the system DEFAULT). */
export const loadWritableDid = async (db: Queryable, tenantId: string, id: string): Promise<DidRow> =>
  assertWritable(await findVisibleDid(db, tenantId, id), tenantId, 'DID');

export const didTaken = () => conflict('did: the DID already has a record', 'DID_ALREADY_EXISTS');
export const aliasTaken = () => conflict('alias: the alias is already used on this VC service instance', 'DID_ALIAS_IN_USE');

/** 409 when the alias is used on the instance, or the DID has a record in any tenant. */
export const assertDidFree = async (db: Queryable, did: string, alias?: { serviceInstanceId: string; alias: string }) => {
  if (alias) {
    const [byAlias] = await db
      .select({ id: dids.id })
      .from(dids)
      .where(and(eq(dids.serviceInstanceId, alias.serviceInstanceId), eq(dids.alias, alias.alias)));
    if (byAlias) throw aliasTaken();
  }
  const [byDid] = await db.select({ id: dids.id }).from(dids).where(eq(dids.did, did));
  if (byDid) throw didTaken();
};

const demoteDefault = async (tx: Queryable, tenantId: string, exceptId?: string) => {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`did-default:${tenantId}`}))`);
  await tx
    .update(dids)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(dids.tenantId, tenantId), eq(dids.isDefault, true), exceptId ? sql`${dids.id} <> ${exceptId}` : undefined));
};

const uniqueRace = (error: unknown) => {
  if (!isUniqueViolation(error)) return error;
  const constraint = violatedConstraint(error);
  if (constraint === 'dids_instance_alias_uq') return aliasTaken();
  if (constraint === 'dids_one_default_idx') return conflict('isDefault: another default DID was set at the same time; retry', 'DEFAULT_CONFLICT');
  return didTaken();
};

/** Inserts a record; setting isDefault demotes the tenant's previous default in the same transaction. */
export const insertDid = async (db: Database, record: NewDid): Promise<DidRow> => {
  try {
    return await db.transaction(async (tx) => {
      if (record.isDefault) await demoteDefault(tx, record.tenantId);
      const [row] = await tx.insert(dids).values(record).returning();
      return row!;
    });
  } catch (error) {
    throw uniqueRace(error);
  }
};

export interface DidPatch {
  name?: string | null;
  description?: string | null;
  isDefault?: boolean;
}

/** PATCH of a tenant-owned DID; one default per tenant (setting it demotes the previous one). */
export const updateDid = async (db: Database, tenantId: string, id: string, patch: DidPatch): Promise<DidRow> => {
  try {
    return await db.transaction(async (tx) => {
      await loadWritableDid(tx, tenantId, id);
      if (patch.isDefault) await demoteDefault(tx, tenantId, id);
      const [row] = await tx
        .update(dids)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(dids.id, id), eq(dids.tenantId, tenantId)))
        .returning();
      return row!;
    });
  } catch (error) {
    throw uniqueRace(error);
  }
};

/** Removes the local record; a default must be cleared first. Returns the removed row. */
export const deleteDidRecord = async (db: Database, tenantId: string, id: string): Promise<DidRow> =>
  db.transaction(async (tx) => {
    const row = await loadWritableDid(tx, tenantId, id);
    if (row.isDefault) throw conflict('isDefault: a default DID cannot be deleted; clear isDefault first', 'DID_IS_DEFAULT');
    await tx.delete(dids).where(and(eq(dids.id, id), eq(dids.tenantId, tenantId)));
    return row;
  });

export const setDidStatus = async (db: Queryable, id: string, status: DidStatus) => {
  const [row] = await db.update(dids).set({ status, updatedAt: new Date() }).where(eq(dids.id, id)).returning();
  return row!;
};
