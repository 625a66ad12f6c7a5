import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { cvcCriteria, cvcProfiles, cvcSchemes } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';

/**
 * A page of catalogue entries visible to a tenant (system plus own), one per canonical URI with the
 * system's entry winning, sorted by name.
 */
const visiblePage = async <T>(
  db: Database,
  table: PgTable,
  tenantId: string,
  filter: SQL,
  page: { limit: number; offset: number },
): Promise<{ rows: T[]; total: number }> => {
  const result = await db.execute(sql`
    with visible as (
      select distinct on (id) * from ${table}
      where tenant_id in (${tenantId}, ${SYSTEM_TENANT_ID}) and ${filter}
      order by id, (tenant_id = ${SYSTEM_TENANT_ID}) desc
    )
    select *, count(*) over() as total from visible order by name, id limit ${page.limit} offset ${page.offset}`);
  const rows = result as unknown as (T & { total: string | number })[];
  if (rows.length > 0 || page.offset === 0) return { rows, total: Number(rows[0]?.total ?? 0) };
  const [counted] = (await db.execute(sql`
    select count(distinct id) as total from ${table} where tenant_id in (${tenantId}, ${SYSTEM_TENANT_ID}) and ${filter}`)) as unknown as { total: string }[];
  return { rows: [], total: Number(counted?.total ?? 0) };
};

export interface SchemeEntry { id: string; name: string; spec_version: string | null; owner: { canonicalId?: string; name?: string } | null }
export interface ProfileEntry { id: string; name: string; version: string | null; status: string | null; valid_from: string | null }
export interface CriterionEntry { id: string; name: string; version: string | null; status: string | null; topics: unknown[]; tags: string[] }

export const listSchemes = (db: Database, tenantId: string, page: { limit: number; offset: number }) =>
  visiblePage<SchemeEntry>(db, cvcSchemes, tenantId, sql`true`, page);

export const listProfiles = (db: Database, tenantId: string, schemeId: string, page: { limit: number; offset: number }) =>
  visiblePage<ProfileEntry>(db, cvcProfiles, tenantId, sql`scheme_id = ${schemeId}`, page);

export const listCriteria = (db: Database, tenantId: string, profileId: string, page: { limit: number; offset: number }) =>
  visiblePage<CriterionEntry>(db, cvcCriteria, tenantId, sql`profile_id = ${profileId}`, page);
