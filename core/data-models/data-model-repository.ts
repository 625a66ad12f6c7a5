import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { dataModels } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { badRequest, conflict, notFound, notFoundAt } from '../errors.ts';
import { assertPublicUrl } from '../net/public-url.ts';
import { assertWritable, visibleTo } from '../tenancy/visibility.ts';

export type DataModelRow = typeof dataModels.$inferSelect;

export interface DataModelInput {
  name: string;
  credentialType: string;
  version: string;
  parentConfigId: string;
  schemaUrl: string;
  contextUrl: string;
  websiteUrl?: string;
}
export type DataModelPatch = Partial<Pick<DataModelInput, 'name' | 'schemaUrl' | 'contextUrl' | 'websiteUrl'>>;

const URL_FIELDS = ['schemaUrl', 'contextUrl', 'websiteUrl'] as const;

/** The three URL fields: well-formed absolute http(s), no userinfo, public unless allowed. */
export const assertModelUrls = (input: Partial<Record<(typeof URL_FIELDS)[number], string>>, allowPrivate: boolean) => {
  for (const field of URL_FIELDS) {
    const value = input[field];
    if (value !== undefined) assertPublicUrl(field, value, allowPrivate);
  }
};

const nameTaken = () => conflict('name: a data model with this name already exists for the credential type and version', 'DATA_MODEL_NAME_TAKEN');
const parentNotFound = () => notFoundAt('parentConfigId', 'data model');

export const listDataModels = async (
  db: Database,
  tenantId: string,
  filter: { credentialType?: string; version?: string; isExtension?: boolean },
  page: { limit: number; offset: number },
) => {
  const where = and(
    visibleTo(dataModels.tenantId, tenantId),
    filter.credentialType !== undefined ? eq(dataModels.credentialType, filter.credentialType) : undefined,
    filter.version !== undefined ? eq(dataModels.version, filter.version) : undefined,
    filter.isExtension !== undefined ? eq(dataModels.isExtension, filter.isExtension) : undefined,
  );
  const [rows, [counted]] = await Promise.all([
    db.select().from(dataModels).where(where).orderBy(asc(dataModels.credentialType), desc(dataModels.version), asc(dataModels.name), asc(dataModels.id)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(dataModels).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
};

/** One visible model with its parent and the extensions the tenant can see. */
export const findDataModel = async (db: Database, tenantId: string, id: string) => {
  const [row] = await db.select().from(dataModels).where(and(eq(dataModels.id, id), visibleTo(dataModels.tenantId, tenantId)));
  if (!row) return undefined;
  const [parent, extensions] = await Promise.all([
    row.parentConfigId
      ? db.select().from(dataModels).where(eq(dataModels.id, row.parentConfigId)).then((r) => r[0] ?? null)
      : Promise.resolve(null),
    db
      .select()
      .from(dataModels)
      .where(and(eq(dataModels.parentConfigId, id), visibleTo(dataModels.tenantId, tenantId)))
      .orderBy(asc(dataModels.name)),
  ]);
  return { ...row, parentConfig: parent, extensions };
};

/**
 * Creates a tenant extension of a visible core model. A missing or foreign parent is one 404; a parent
 * that is itself an extension is a 400 (extensions do not nest); the name is unique per tenant,
 * credential type, version and isExtension (409, also under a race).
 */
export const createDataModel = async (db: Database, tenantId: string, input: DataModelInput, allowPrivate: boolean) => {
  assertModelUrls(input, allowPrivate);
  const [parent] = await db
    .select({ isExtension: dataModels.isExtension })
    .from(dataModels)
    .where(and(eq(dataModels.id, input.parentConfigId), visibleTo(dataModels.tenantId, tenantId)));
  if (!parent) throw parentNotFound();
  if (parent.isExtension) throw badRequest('parentConfigId: must be a core data model (extensions cannot be nested)');
  try {
    const [row] = await db
      .insert(dataModels)
      .values({ ...input, websiteUrl: input.websiteUrl ?? null, tenantId, isExtension: true })
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
};

const loadWritable = async (db: Database, tenantId: string, id: string) => {
  const [row] = await db.select().from(dataModels).where(and(eq(dataModels.id, id), visibleTo(dataModels.tenantId, tenantId)));
  return assertWritable(row, tenantId, 'Data model');
};

/** Only the tenant's own extensions change; core and system models are read-only (403). */
export const updateDataModel = async (db: Database, tenantId: string, id: string, patch: DataModelPatch, allowPrivate: boolean) => {
  assertModelUrls(patch, allowPrivate);
  await loadWritable(db, tenantId, id);
  try {
    const [row] = await db
      .update(dataModels)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(eq(dataModels.id, id), eq(dataModels.tenantId, tenantId)))
      .returning();
    if (!row) throw notFound('Data model');
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
};

/** Deletes one of the tenant's extensions (render templates go with it). */
export const deleteDataModel = async (db: Database, tenantId: string, id: string) => {
  await loadWritable(db, tenantId, id);
  await db.delete(dataModels).where(and(eq(dataModels.id, id), eq(dataModels.tenantId, tenantId)));
};

