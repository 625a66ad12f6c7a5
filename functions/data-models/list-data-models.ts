import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listDataModels } from '../../core/data-models/data-model-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { booleanFilter } from '../platform/filters.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { DataModelSchema, toDataModelResponse } from './schemas.ts';

export const listDataModelsRoute = createRoute({
  method: 'get',
  operationId: 'listDataModels',
  path: '/',
  tags: ['Data models'],
  summary: 'Core models and the tenant’s (and system) extensions',
  security: guarded,
  request: {
    query: z.object({
      credentialType: z.string().optional(),
      version: z.string().optional(),
      isExtension: booleanFilter(),
      ...pageQuerySchema,
    }),
  },
  responses: { 200: jsonResponse(listEnvelopeSchema(DataModelSchema), 'A page of data models'), ...pick(400, 401, 403, 500) },
});

export const registerListDataModels = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listDataModelsRoute, async (c) => {
    const { limit, offset, ...filter } = c.req.valid('query');
    const page = parsePage({ limit, offset }, c.get('services').settings);
    const { rows, total } = await listDataModels(c.get('services').db, c.get('principal').tenantId, filter, page);
    return c.json(listEnvelope(rows.map(toDataModelResponse), total, page), 200);
  });
