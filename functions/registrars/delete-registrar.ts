import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteRegistrar } from '../../core/registrars/registrar-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { RegistrarIdParam } from './schemas.ts';

export const deleteRegistrarRoute = createRoute({
  method: 'delete',
  operationId: 'deleteRegistrar',
  path: '/{id}',
  tags: ['Registrars'],
  summary: 'Delete a tenant-owned registrar with its schemes and qualifiers',
  description: 'Refused with 409 (nothing removed) while any of its schemes has identifiers.',
  security: guarded,
  request: { params: RegistrarIdParam },
  responses: {
    204: { description: 'Deleted' },
    ...pick(401, 403, 404, 409, 500),
  },
});

export const registerDeleteRegistrar = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteRegistrarRoute, async (c) => {
    await deleteRegistrar(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
