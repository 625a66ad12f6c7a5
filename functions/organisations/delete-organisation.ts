import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteOrganisation } from '../../core/organisations/organisation-repository.ts';
import { RecordIdParam } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';

export const deleteOrganisationRoute = createRoute({
  method: 'delete',
  operationId: 'deleteOrganisation',
  path: '/{id}',
  tags: ['Organisations'],
  summary: 'Delete one of the tenant’s organisations',
  description:
    'Facilities it operates, products it produced and credentials that name it keep existing with that ' +
    'reference set to null. Its identifiers are not deleted.',
  security: guarded,
  request: { params: RecordIdParam },
  responses: { 204: { description: 'Deleted' }, ...pick(401, 403, 404, 500) },
});

export const registerDeleteOrganisation = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteOrganisationRoute, async (c) => {
    await deleteOrganisation(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
