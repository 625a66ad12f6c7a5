import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteFacility } from '../../core/facilities/facility-repository.ts';
import { RecordIdParam } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';

export const deleteFacilityRoute = createRoute({
  method: 'delete',
  operationId: 'deleteFacility',
  path: '/{id}',
  tags: ['Facilities'],
  summary: 'Delete one of the tenant’s facilities',
  description:
    'Products made there and credentials that name it keep existing with that reference set to null. ' +
    'Its identifiers are not deleted.',
  security: guarded,
  request: { params: RecordIdParam },
  responses: { 204: { description: 'Deleted' }, ...pick(401, 403, 404, 500) },
});

export const registerDeleteFacility = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteFacilityRoute, async (c) => {
    await deleteFacility(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
