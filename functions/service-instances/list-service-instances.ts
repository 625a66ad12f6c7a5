import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listServiceInstances } from '../../core/service-instances/service-instance-repository.ts';
import { ADAPTER_TYPES, SERVICE_TYPES } from '../../db/schema/index.ts';
import type { AppEnv } from '../platform/env.ts';
import { enumFilter } from '../platform/filters.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { ServiceInstanceSchema, toServiceInstanceResponse } from './schemas.ts';

export const listServiceInstancesRoute = createRoute({
  method: 'get',
  operationId: 'listServiceInstances',
  path: '/',
  tags: ['Service instances'],
  summary: "The tenant's instances and the system defaults, newest first",
  description: 'A system default reads isPrimary false for a tenant that has its own primary of that type.',
  security: guarded,
  request: {
    query: z.object({ serviceType: enumFilter(SERVICE_TYPES), adapterType: enumFilter(ADAPTER_TYPES), ...pageQuerySchema }),
  },
  responses: { 200: jsonResponse(listEnvelopeSchema(ServiceInstanceSchema), 'A page of instances'), ...pick(400, 401, 403, 500) },
});

export const registerListServiceInstances = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listServiceInstancesRoute, async (c) => {
    const { limit, offset, ...filter } = c.req.valid('query');
    const page = parsePage({ limit, offset }, c.get('services').settings);
    const { rows, total } = await listServiceInstances(requestDeps(c), c.get('principal').tenantId, filter, page);
    return c.json(listEnvelope(rows.map((row) => toServiceInstanceResponse(row, c.get('services').settings.showSystemServiceBaseUrl)), total, page), 200);
  });
