import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { serviceInstances } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';

const own = alias(serviceInstances, 'own_primary');

/**
 * One primary per service type as a tenant sees it: its own primary of a type wins, so the system
 * default of that type reads `isPrimary: false` for that tenant; without an own primary the system
 * default stays the primary (the same order the adapters' resolvers use).
 */
const primaryAsSeenBy = (tenantId: string): SQL<boolean> =>
  sql<boolean>`(${serviceInstances.isPrimary} and not (${serviceInstances.tenantId} = ${SYSTEM_TENANT_ID} and exists (${sql`select 1 from ${serviceInstances} as ${sql.identifier('own_primary')} where ${and(
    eq(own.tenantId, tenantId),
    eq(own.serviceType, serviceInstances.serviceType),
    eq(own.isPrimary, true),
  )}`})))`;

/** The columns of a service-instance read with `isPrimary` as the tenant sees it. */
export const instanceColumnsFor = (tenantId: string) => ({ ...getTableColumns(serviceInstances), isPrimary: primaryAsSeenBy(tenantId) });
