import { and, asc, count, desc, eq } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import type { Database, Queryable } from '../../db/client.ts';
import { identifiers, identifierSchemes, registrars, schemeQualifiers } from '../../db/schema/index.ts';
import { isForeignKeyViolation, isUniqueViolation, violatedConstraint } from '../db-errors.ts';
import { conflict, notFoundAt } from '../errors.ts';
import { assertUsableServiceInstance, serviceInstanceNotFound } from '../service-instances/visible-instance.ts';
import { assertWritable, visibleTo } from '../tenancy/visibility.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';

export type SchemeRow = typeof identifierSchemes.$inferSelect;
export interface QualifierInput {
  key: string;
  description: string;
  validationPattern: string;
  order?: number;
}
export interface SchemeInput {
  registrarId: string;
  name: string;
  primaryKey: string;
  validationPattern: string;
  linkTemplate: string;
  idrServiceInstanceId?: string | null;
  qualifiers?: QualifierInput[];
}
/** registrarId is fixed at creation; `qualifiers` replaces the whole set. */
export type SchemePatch = Partial<Omit<SchemeInput, 'registrarId'>>;

const IDR_FIELD = 'idrServiceInstanceId';
const PRIMARY_KEY_UNIQUE = 'identifier_schemes_registrar_primary_key_uq';
const QUALIFIER_KEY_UNIQUE = 'scheme_qualifiers_scheme_key_uq';
const foreignKeyOn = (column: string) =>
  getTableConfig(identifierSchemes)
    .foreignKeys.find((fk) => fk.reference().columns.some((c) => c.name === column))!
    .getName();
const IDR_FOREIGN_KEY = foreignKeyOn('idr_service_instance_id');
const REGISTRAR_FOREIGN_KEY = foreignKeyOn('registrar_id');

const qualifierOrder = [asc(schemeQualifiers.order), asc(schemeQualifiers.key)];
const newestFirst = [desc(identifierSchemes.createdAt), desc(identifierSchemes.id)];

/** The tenant's schemes plus system defaults, newest first, each with its qualifiers (no registrar). */
export const listSchemes = async (
  db: Database,
  tenantId: string,
  filter: { registrarId?: string },
  page: { limit: number; offset: number },
) => {
  const where = and(
    visibleTo(identifierSchemes.tenantId, tenantId),
    filter.registrarId === undefined ? undefined : eq(identifierSchemes.registrarId, filter.registrarId),
  );
  const [rows, [counted]] = await Promise.all([
    db.query.identifierSchemes.findMany({
      where,
      with: { qualifiers: { orderBy: qualifierOrder } },
      orderBy: newestFirst,
      limit: page.limit,
      offset: page.offset,
    }),
    db.select({ total: count() }).from(identifierSchemes).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
};

/** One visible scheme with its registrar and qualifiers; one query. */
export const findScheme = (db: Queryable, tenantId: string, id: string) =>
  db.query.identifierSchemes.findFirst({
    where: and(eq(identifierSchemes.id, id), visibleTo(identifierSchemes.tenantId, tenantId)),
    with: { registrar: true, qualifiers: { orderBy: qualifierOrder } },
  });

/**
 * A scheme the tenant may use for its identifiers (its own or a system default), share-locked so its
 * validationPattern cannot change, nor the scheme disappear, until the caller's transaction ends.
 */
export const lockUsableScheme = async (tx: Queryable, tenantId: string, id: string, field: string) => {
  const [scheme] = await tx
    .select()
    .from(identifierSchemes)
    .where(and(eq(identifierSchemes.id, id), visibleTo(identifierSchemes.tenantId, tenantId)))
    .for('share');
  if (!scheme) throw schemeNotFoundAt(field);
  return scheme;
};

export const schemeNotFoundAt = (field: string) => notFoundAt(field, 'identifier scheme');

/** Creates a scheme with its qualifiers in one transaction; returns the new id. */
export const createScheme = async (db: Database, tenantId: string, input: SchemeInput): Promise<string> => {
  const { qualifiers, ...fields } = input;
  return writeScheme(db, async (tx) => {
    await lockVisibleRegistrar(tx, tenantId, input.registrarId);
    await assertPrimaryKeyNotSystem(tx, tenantId, input.registrarId, input.primaryKey);
    if (fields.idrServiceInstanceId) {
      await assertUsableServiceInstance(tx, tenantId, fields.idrServiceInstanceId, 'IDR', IDR_FIELD);
    }
    const [scheme] = await tx
      .insert(identifierSchemes)
      .values({ ...fields, tenantId })
      .returning({ id: identifierSchemes.id });
    await insertQualifiers(tx, scheme!.id, qualifiers ?? []);
    return scheme!.id;
  });
};

/** Updates a tenant-owned scheme; `qualifiers` replaces the whole set. All or nothing. */
export const updateScheme = async (db: Database, tenantId: string, id: string, patch: SchemePatch): Promise<void> => {
  const { qualifiers, ...fields } = patch;
  await writeScheme(db, async (tx) => {
    // Serialises concurrent PATCHes of one scheme (their qualifier sets replace each other whole)
    // without blocking identifiers, which only key-share or share-lock the row.
    const [row] = await tx
      .select()
      .from(identifierSchemes)
      .where(and(eq(identifierSchemes.id, id), visibleTo(identifierSchemes.tenantId, tenantId)))
      .for('no key update');
    const current = assertWritable(row, tenantId, 'Identifier scheme');
    if (fields.primaryKey !== undefined) await assertPrimaryKeyNotSystem(tx, tenantId, current.registrarId, fields.primaryKey);
    if (fields.idrServiceInstanceId) {
      await assertUsableServiceInstance(tx, tenantId, fields.idrServiceInstanceId, 'IDR', IDR_FIELD);
    }
    await tx
      .update(identifierSchemes)
      .set({ ...fields, updatedAt: new Date() })
      .where(and(eq(identifierSchemes.id, id), eq(identifierSchemes.tenantId, tenantId)));
    if (qualifiers) {
      await tx.delete(schemeQualifiers).where(eq(schemeQualifiers.schemeId, id));
      await insertQualifiers(tx, id, qualifiers);
    }
  });
};

/** Tenant-owned schemes only; refused (nothing removed) while identifiers reference the scheme. */
export const deleteScheme = async (db: Database, tenantId: string, id: string): Promise<void> => {
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(identifierSchemes)
        .where(and(eq(identifierSchemes.id, id), visibleTo(identifierSchemes.tenantId, tenantId)))
        .for('update');
      assertWritable(row, tenantId, 'Identifier scheme');
      const [inUse] = await tx
        .select({ id: identifiers.id })
        .from(identifiers)
        .where(eq(identifiers.schemeId, id))
        .limit(1);
      if (inUse) throw schemeInUse();
      await tx.delete(identifierSchemes).where(eq(identifierSchemes.id, id));
    });
  } catch (error) {
    // The RESTRICT foreign key of identifiers refuses the delete even if the check above were bypassed.
    if (isForeignKeyViolation(error)) throw schemeInUse();
    throw error;
  }
};

const lockVisibleRegistrar = async (tx: Queryable, tenantId: string, id: string) => {
  const [registrar] = await tx
    .select({ id: registrars.id })
    .from(registrars)
    .where(and(eq(registrars.id, id), visibleTo(registrars.tenantId, tenantId)))
    .for('key share');
  if (!registrar) throw registrarNotFound();
};

/**
 * primaryKey is unique per registrar within a tenant (the database's constraint); on a system
 * registrar a tenant also cannot take a primaryKey a system scheme holds. Other tenants' schemes never
 * count, so a 409 reveals nothing about them.
 */
const assertPrimaryKeyNotSystem = async (tx: Queryable, tenantId: string, registrarId: string, primaryKey: string) => {
  if (tenantId === SYSTEM_TENANT_ID) return;
  const [system] = await tx
    .select({ id: identifierSchemes.id })
    .from(identifierSchemes)
    .where(and(eq(identifierSchemes.registrarId, registrarId), eq(identifierSchemes.primaryKey, primaryKey), eq(identifierSchemes.tenantId, SYSTEM_TENANT_ID)))
    .limit(1);
  if (system) throw primaryKeyTaken();
};

const insertQualifiers = async (tx: Queryable, schemeId: string, qualifiers: QualifierInput[]) => {
  if (qualifiers.length === 0) return;
  await tx.insert(schemeQualifiers).values(qualifiers.map((q) => ({ ...q, order: q.order ?? 0, schemeId })));
};

/**
 * Runs a scheme write in one transaction and turns the database's refusals (a rival request won a
 * race the checks above could not see) into the same answers the checks give.
 */
const writeScheme = async <T>(db: Database, write: (tx: Queryable) => Promise<T>): Promise<T> => {
  try {
    return await db.transaction(write);
  } catch (error) {
    const constraint = violatedConstraint(error);
    if (isUniqueViolation(error) && constraint === PRIMARY_KEY_UNIQUE) throw primaryKeyTaken();
    if (isUniqueViolation(error) && constraint === QUALIFIER_KEY_UNIQUE) throw qualifierKeyTaken();
    if (isForeignKeyViolation(error) && constraint === IDR_FOREIGN_KEY) throw serviceInstanceNotFound(IDR_FIELD);
    if (isForeignKeyViolation(error) && constraint === REGISTRAR_FOREIGN_KEY) throw registrarNotFound();
    throw error;
  }
};

const registrarNotFound = () => notFoundAt('registrarId', 'registrar');
const primaryKeyTaken = () =>
  conflict('primaryKey: a scheme with this primaryKey already exists for the registrar', 'SCHEME_PRIMARY_KEY_EXISTS');
const qualifierKeyTaken = () =>
  conflict('qualifiers: a qualifier with this key already exists for the scheme', 'QUALIFIER_KEY_EXISTS');
const schemeInUse = () =>
  conflict('Identifier scheme cannot be deleted while identifiers reference it', 'SCHEME_IN_USE');
