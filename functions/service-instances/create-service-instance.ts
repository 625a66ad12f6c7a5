import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { createServiceInstance } from '../../core/service-instances/service-instance-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { CreateServiceInstanceBody, ServiceInstanceSchema, toServiceInstanceResponse } from './schemas.ts';

export const createServiceInstanceRoute = createRoute({
  method: 'post',
  operationId: 'createServiceInstance',
  path: '/',
  tags: ['Service instances'],
  summary: 'Connect a VC, storage or IDR service',
  description:
    'The config is validated against the adapter’s schema (400 naming `config.<field>`), its URLs must be public ' +
    'unless FETCH_ALLOW_PRIVATE_URLS is exactly true, and it is encrypted at rest; secrets come back as ***. ' +
    'isPrimary true demotes the tenant’s previous primary of that type. An IDR instance is probed before it is saved: ' +
    'a base URL or path prefix where the resolver’s routes (`/api/v4/.well-known/resolver`, its link routes) do not ' +
    'answer as the resolver does is a 400 naming `config.baseUrl` (a refused key names `config.apiKey`); a resolver ' +
    'that does not answer at all (unreachable, timeout, 5xx) is a 502 IDR_UNAVAILABLE. Either way nothing is saved.',
  security: guarded,
  request: { body: jsonBody(CreateServiceInstanceBody) },
  responses: { 201: jsonResponse(ServiceInstanceSchema, 'The new instance'), ...pick(400, 401, 403, 409, 413, 500, 502) },
});

export const registerCreateServiceInstance = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createServiceInstanceRoute, async (c) => {
    const row = await createServiceInstance(requestDeps(c), c.get('principal').tenantId, c.req.valid('json'));
    return c.json(toServiceInstanceResponse(row), 201);
  });
