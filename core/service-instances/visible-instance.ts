import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { serviceInstances, type ServiceType } from '../../db/schema/index.ts';
import { ApiError, badRequest } from '../errors.ts';
import { visibleTo } from '../tenancy/visibility.ts';

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
  if (!instance) throw new ApiError(404, `${field}: service instance not found`, 'SERVICE_INSTANCE_NOT_FOUND');
  if (instance.serviceType !== expectedType) {
    throw badRequest(`${field}: service instance is not an ${expectedType} instance`);
  }
};
