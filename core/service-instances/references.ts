import { and, count, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { dids, identifierSchemes, registrars } from '../../db/schema/index.ts';

export interface InstanceReferences {
  dids: number;
  registrars: number;
  schemes: number;
}

/**
 * The caller's own records that use an instance (render templates' storage references are not
 * counted).
 */
export const countReferences = async (db: Queryable, tenantId: string, instanceId: string): Promise<InstanceReferences> => {
  const [[d], [r], [s]] = await Promise.all([
    db.select({ n: count() }).from(dids).where(and(eq(dids.tenantId, tenantId), eq(dids.serviceInstanceId, instanceId))),
    db.select({ n: count() }).from(registrars).where(and(eq(registrars.tenantId, tenantId), eq(registrars.idrServiceInstanceId, instanceId))),
    db
      .select({ n: count() })
      .from(identifierSchemes)
      .where(and(eq(identifierSchemes.tenantId, tenantId), eq(identifierSchemes.idrServiceInstanceId, instanceId))),
  ]);
  return { dids: d?.n ?? 0, registrars: r?.n ?? 0, schemes: s?.n ?? 0 };
};

/** Clears the caller's references (force delete). */
export const clearReferences = async (db: Queryable, tenantId: string, instanceId: string): Promise<void> => {
  await db
    .update(dids)
    .set({ serviceInstanceId: null, updatedAt: new Date() })
    .where(and(eq(dids.tenantId, tenantId), eq(dids.serviceInstanceId, instanceId)));
  await db
    .update(registrars)
    .set({ idrServiceInstanceId: null, updatedAt: new Date() })
    .where(and(eq(registrars.tenantId, tenantId), eq(registrars.idrServiceInstanceId, instanceId)));
  await db
    .update(identifierSchemes)
    .set({ idrServiceInstanceId: null, updatedAt: new Date() })
    .where(and(eq(identifierSchemes.tenantId, tenantId), eq(identifierSchemes.idrServiceInstanceId, instanceId)));
};
