import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { cvcSchemes } from '../../db/schema/index.ts';
import { systemFirst, visibleProfile } from '../conformity/catalogue-lookup.ts';
import { visibleTo } from '../tenancy/visibility.ts';
import type { CatalogueEntry } from './payload-builders/master-records.ts';

/** The conformity scheme a person chose, as the tenant sees it (its own or the system's), or undefined. */
export const chosenScheme = async (db: Queryable, tenantId: string, schemeId: string): Promise<CatalogueEntry | undefined> => {
  const [row] = await db
    .select({ id: cvcSchemes.id, name: cvcSchemes.name, version: cvcSchemes.specVersion, owner: cvcSchemes.owner })
    .from(cvcSchemes)
    .where(and(eq(cvcSchemes.id, schemeId), visibleTo(cvcSchemes.tenantId, tenantId)))
    .orderBy(systemFirst(cvcSchemes.tenantId))
    .limit(1);
  if (!row) return undefined;
  const owner = row.owner as { canonicalId?: string; name?: string } | null;
  return { id: row.id, name: row.name, version: row.version, owner: owner?.canonicalId && owner.name ? { id: owner.canonicalId, name: owner.name } : null };
};

/** The profile a person chose, if the tenant sees it and it belongs to the chosen scheme; else undefined. */
export const chosenProfile = async (db: Queryable, tenantId: string, schemeId: string, profileId: string): Promise<CatalogueEntry | undefined> => {
  const row = await visibleProfile(db, tenantId, profileId);
  return row && row.schemeId === schemeId ? { id: row.id, name: row.name, version: row.version, validFrom: row.validFrom } : undefined;
};
