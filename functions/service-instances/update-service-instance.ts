import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { updateServiceInstance } from '../../core/service-instances/service-instance-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { ServiceIdParam, ServiceInstanceSchema, toServiceInstanceResponse, UpdateServiceInstanceBody } from './schemas.ts';

export const updateServiceInstanceRoute = createRoute({
  method: 'patch',
  operationId: 'updateServiceInstance',
  path: '/{id}',
  tags: ['Service instances'],
  summary: 'Change one of the tenant’s instances',
  description:
    'System defaults are read-only (403). config is shallow-merged over the stored one, then validated and ' +
    'encrypted; a sensitive field sent as *** keeps its stored value. A changed effective config while ' +
    'credential status operations are pending is a 409 SERVICE_INSTANCE_STATUS_PENDING; name, description and ' +
    'isPrimary changes are always allowed. A changed IDR config is probed as on create (400 naming `config.baseUrl` ' +
    'or `config.apiKey` when the resolver answers but not as required, 502 IDR_UNAVAILABLE when it does not answer); ' +
    'the change is then not saved.',
  security: guarded,
  request: { params: ServiceIdParam, body: jsonBody(UpdateServiceInstanceBody) },
  responses: { 200: jsonResponse(ServiceInstanceSchema, 'The updated instance'), ...pick(400, 401, 403, 404, 409, 413, 500, 502) },
});

export const registerUpdateServiceInstance = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateServiceInstanceRoute, async (c) => {
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateServiceInstanceBody.shape));
    const row = await updateServiceInstance(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id, patch);
    return c.json(toServiceInstanceResponse(row), 200);
  });
