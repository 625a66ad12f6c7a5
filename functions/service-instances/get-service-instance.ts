import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/errors.ts';
import { findServiceInstance } from '../../core/service-instances/service-instance-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { ServiceIdParam, ServiceInstanceSchema, toServiceInstanceResponse } from './schemas.ts';

export const getServiceInstanceRoute = createRoute({
  method: 'get',
  operationId: 'getServiceInstance',
  path: '/{id}',
  tags: ['Service instances'],
  summary: 'One own or system-default instance',
  security: guarded,
  request: { params: ServiceIdParam },
  responses: { 200: jsonResponse(ServiceInstanceSchema, 'The instance'), ...pick(401, 403, 404, 500) },
});

export const registerGetServiceInstance = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getServiceInstanceRoute, async (c) => {
    const row = await findServiceInstance(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Service instance');
    return c.json(toServiceInstanceResponse(row, c.get('services').settings.showSystemServiceBaseUrl), 200);
  });
