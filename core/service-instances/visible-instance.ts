import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { serviceInstances, type ServiceType } from '../../db/schema/index.ts';
import { badRequest, notFoundAt } from '../errors.ts';
import { visibleTo } from '../tenancy/visibility.ts';

/** The 404 for a referenced instance that is missing or foreign (also when it vanished mid-write). */
export const serviceInstanceNotFound = (field: string) => notFoundAt(field, 'service instance', 'SERVICE_INSTANCE_NOT_FOUND');

/**
 * A service instance a tenant may reference: its own or a system default, of the expected type.
 * Missing and foreign ids give the same 404 naming the field.
 */
export const assertUsableServiceInstance = async (
  db: Queryable,
  tenantId: string,
  id: string,
  expectedType: ServiceType,
  field: string,
): Promise<void> => {
  const [instance] = await db
    .select({ serviceType: serviceInstances.serviceType })
    .from(serviceInstances)
    .where(and(eq(serviceInstances.id, id), visibleTo(serviceInstances.tenantId, tenantId)));
  if (!instance) throw serviceInstanceNotFound(field);
  if (instance.serviceType !== expectedType) {
    throw badRequest(`${field}: service instance is not an ${expectedType} instance`);
  }
};
