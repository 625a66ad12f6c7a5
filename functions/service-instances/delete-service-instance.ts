import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { deleteServiceInstance, parseForce } from '../../core/service-instances/service-instance-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { ServiceIdParam } from './schemas.ts';

export const deleteServiceInstanceRoute = createRoute({
  method: 'delete',
  operationId: 'deleteServiceInstance',
  path: '/{id}',
  tags: ['Service instances'],
  summary: 'Remove one of the tenant’s instances',
  description:
    'A system default is a 403 (checked first). While the caller’s DIDs, registrars or schemes reference the ' +
    'instance the answer is 409 SERVICE_INSTANCE_IN_USE with their counts, unless force=true, which clears those ' +
    'references. Pending credential status operations block even with force. Render templates’ storage ' +
    'references are not counted.',
  security: guarded,
  request: {
    params: ServiceIdParam,
    query: z.object({ force: z.string().optional().openapi({ description: 'Exactly true or false (default false)' }) }),
  },
  responses: { 204: { description: 'Deleted' }, ...pick(400, 401, 403, 404, 409, 500) },
});

export const registerDeleteServiceInstance = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteServiceInstanceRoute, async (c) => {
    const force = parseForce(c.req.valid('query').force);
    await deleteServiceInstance(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id, force);
    return c.body(null, 204);
  });
