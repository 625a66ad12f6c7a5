import { and, eq, sql, type AnyColumn } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { cvcCriteria, cvcProfiles, cvcSchemes } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { visibleTo } from '../tenancy/visibility.ts';

/** The system's entry first, so it wins over a tenant's entry with the same canonical URI. */
export const systemFirst = (tenantColumn: AnyColumn) => sql`(${tenantColumn} = ${SYSTEM_TENANT_ID}) desc`;

export const schemeIsVisible = async (db: Queryable, tenantId: string, schemeId: string): Promise<boolean> => {
  const rows = await db.select({ id: cvcSchemes.id }).from(cvcSchemes).where(and(eq(cvcSchemes.id, schemeId), visibleTo(cvcSchemes.tenantId, tenantId))).limit(1);
  return rows.length > 0;
};

/** The visible profile with this URI (the system's when both have it), or undefined. */
export const visibleProfile = async (db: Queryable, tenantId: string, profileId: string) => {
  const [row] = await db
    .select({ id: cvcProfiles.id, schemeId: cvcProfiles.schemeId, tenantId: cvcProfiles.tenantId, name: cvcProfiles.name, version: cvcProfiles.version, validFrom: cvcProfiles.validFrom })
    .from(cvcProfiles)
    .where(and(eq(cvcProfiles.id, profileId), visibleTo(cvcProfiles.tenantId, tenantId)))
    .orderBy(systemFirst(cvcProfiles.tenantId))
    .limit(1);
  return row;
};

/** Criteria of a profile as its owner recorded them: URI → topic URIs. */
export const profileCriteria = async (db: Queryable, profile: { id: string; tenantId: string }): Promise<Map<string, string[]>> => {
  const rows = await db
    .select({ id: cvcCriteria.id, topics: cvcCriteria.topics })
    .from(cvcCriteria)
    .where(and(eq(cvcCriteria.profileId, profile.id), eq(cvcCriteria.tenantId, profile.tenantId)));
  return new Map(rows.map((r) => [r.id, (r.topics as { canonicalId?: string }[]).flatMap((t) => (t.canonicalId ? [t.canonicalId] : []))]));
};
