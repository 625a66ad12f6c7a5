import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { createVcAdapter, type VcAdapter, type VcConfig } from '../adapters/vc/vc-adapter.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { prepared } from '../prepared-queries.ts';
import { assertUsableServiceInstance, serviceInstanceNotFound } from '../service-instances/visible-instance.ts';
import { SYSTEM_SERVICE_IDS } from '../settings/system-services.ts';
import { visibleTo } from '../tenancy/visibility.ts';

export type VcInstance = typeof serviceInstances.$inferSelect;
export const VC_FIELD = 'serviceInstanceId';

const findVisible = async (db: Queryable, tenantId: string, id: string) => {
  const [row] = await db
    .select()
    .from(serviceInstances)
    .where(and(eq(serviceInstances.id, id), visibleTo(serviceInstances.tenantId, tenantId)));
  return row;
};

/**
 * The VC instance a DID uses: the given one (the tenant's own or a system default VC instance, else
 * 404 naming the field), else the tenant's primary VC instance, else the system default.
 */
export const resolveVcInstance = async (db: Queryable, tenantId: string, given?: string): Promise<VcInstance> => {
  if (given !== undefined) {
    await assertUsableServiceInstance(db, tenantId, given, 'VC', VC_FIELD);
    const row = await findVisible(db, tenantId, given);
    if (!row) throw serviceInstanceNotFound(VC_FIELD);
    return row;
  }
  const [primary] = await db
    .select()
    .from(serviceInstances)
    .where(and(eq(serviceInstances.serviceType, 'VC'), eq(serviceInstances.isPrimary, true), visibleTo(serviceInstances.tenantId, tenantId)))
    .orderBy(desc(eq(serviceInstances.tenantId, tenantId)));
  const chosen = primary ?? (await systemVcInstance(db));
  if (!chosen) throw serviceInstanceNotFound(VC_FIELD);
  return chosen;
};

export interface VcDeps {
  box: SecretBox;
  fetcher: Fetcher;
  /** Sent with every call (`x-correlation-id`). */
  correlationId?: string;
}

export const vcConfigOf = async (box: SecretBox, instance: VcInstance) => (await box.openConfig(instance.configEncrypted)) as VcConfig;

export const vcAdapterFor = async (deps: VcDeps, instance: VcInstance): Promise<{ adapter: VcAdapter; config: VcConfig }> => {
  const config = await vcConfigOf(deps.box, instance);
  return { adapter: createVcAdapter(config, deps.fetcher, { correlationId: deps.correlationId }), config };
};

/** Which row is the system default VC instance: its reserved id, system-owned. */
export const isSystemVcInstance = (): SQL =>
  and(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.VC), eq(serviceInstances.tenantId, SYSTEM_TENANT_ID)) as SQL;

/**
 * The system default VC instance (its host is reserved: tenants cannot self-manage it). Every public
 * verification reads it, so the read is a prepared statement.
 */
export const systemVcInstance = async (db: Queryable): Promise<VcInstance | undefined> => {
  const [row] = await prepared(db, 'vc.systemInstance', (d) => d.select().from(serviceInstances).where(isSystemVcInstance()).prepare('vc_system_instance')).execute();
  return row;
};

/** The instance a stored DID names, whoever owns it now (it was visible when the DID was recorded). */
export const findServiceInstanceRow = async (db: Queryable, id: string) => {
  const [row] = await db.select().from(serviceInstances).where(eq(serviceInstances.id, id));
  return row;
};
