import { and, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { dataModels } from '../../db/schema/index.ts';
import { badRequest } from '../errors.ts';
import { prepared, tenantParam } from '../prepared-queries.ts';
import { visibleTo } from '../tenancy/visibility.ts';
import { resolvedDataModel, type ResolvedDataModel } from './payload-validation.ts';

export interface IssuanceDataModel extends ResolvedDataModel {
  id: string;
  name: string;
}

/**
 * Step 2 of issuance: the data model the tenant sees for a credential type and version (its own
 * extension before a system model of the same pair), with its parent's schema for an extension.
 * An unknown pair is a 400 naming `credentialType`.
 */
export const resolveIssuanceDataModel = async (db: Queryable, tenantId: string, credentialType: string, version: string): Promise<IssuanceDataModel> => {
  const [model] = await prepared(db, 'issuance.dataModel', (d) =>
    d
      .select()
      .from(dataModels)
      .where(and(eq(dataModels.credentialType, sql.placeholder('credentialType')), eq(dataModels.version, sql.placeholder('version')), visibleTo(dataModels.tenantId, tenantParam)))
      .orderBy(desc(eq(dataModels.tenantId, tenantParam)), desc(dataModels.isExtension), desc(dataModels.createdAt))
      .limit(1)
      .prepare('issuance_data_model'),
  ).execute({ credentialType, version, tenantId });
  if (!model) {
    throw badRequest(`credentialType: no data model for ${credentialType} version ${version} is available to this tenant`, 'DATA_MODEL_NOT_FOUND');
  }
  const [parent] = model.parentConfigId ? await db.select().from(dataModels).where(eq(dataModels.id, model.parentConfigId)) : [];
  return { id: model.id, name: model.name, ...resolvedDataModel(model, parent ?? null) };
};
