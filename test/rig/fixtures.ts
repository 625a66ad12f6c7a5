import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  identifiers,
  identifierSchemes,
  registrars,
  schemeQualifiers,
  serviceInstances,
  type ServiceType,
} from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';

/** Records the API cannot create yet (or that only start-up creates), written straight to the database. */
export const insertRegistrar = async (db: Database, tenantId = SYSTEM_TENANT_ID, name = 'System Registrar') => {
  const [row] = await db
    .insert(registrars)
    .values({ tenantId, name, namespace: name.toLowerCase().replaceAll(' ', '-'), url: 'https://registrar.example.org' })
    .returning();
  return row!;
};

export const insertScheme = async (
  db: Database,
  input: { tenantId: string; registrarId: string; primaryKey?: string; qualifiers?: { key: string; order?: number }[] },
) => {
  const [scheme] = await db
    .insert(identifierSchemes)
    .values({
      tenantId: input.tenantId,
      registrarId: input.registrarId,
      name: `Scheme ${input.primaryKey ?? '01'}`,
      primaryKey: input.primaryKey ?? '01',
      validationPattern: '^\\d{14}$',
      linkTemplate: '/{primaryKey}/{value}',
    })
    .returning();
  for (const q of input.qualifiers ?? []) {
    await db.insert(schemeQualifiers).values({
      schemeId: scheme!.id,
      key: q.key,
      description: `Qualifier ${q.key}`,
      validationPattern: '^[A-Za-z0-9]{1,20}$',
      order: q.order ?? 0,
    });
  }
  return scheme!;
};

export const insertIdentifier = async (db: Database, tenantId: string, schemeId: string, value = '09520123456788') => {
  const [row] = await db.insert(identifiers).values({ tenantId, schemeId, value }).returning();
  return row!;
};

export const insertServiceInstance = async (db: Database, tenantId: string, serviceType: ServiceType = 'IDR') => {
  const adapterType = ({ IDR: 'IDR_ADAPTER', STORAGE: 'STORAGE_ADAPTER', VC: 'VC_ADAPTER' } as const)[serviceType];
  const [row] = await db
    .insert(serviceInstances)
    .values({ tenantId, serviceType, adapterType, name: `${serviceType} of ${tenantId}`, configEncrypted: 'v1.x.y' })
    .returning();
  return row!;
};

export const deleteServiceInstance = (db: Database, id: string) =>
  db.delete(serviceInstances).where(eq(serviceInstances.id, id));

export { SYSTEM_SERVICE_IDS, SYSTEM_TENANT_ID };
