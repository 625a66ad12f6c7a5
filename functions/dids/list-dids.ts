import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listDids } from '../../core/dids/did-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, parsePage } from '../platform/pagination.ts';
import { DidListQuery, DidSchema, toDidResponse } from './schemas.ts';

export const listDidsRoute = createRoute({
  method: 'get',
  operationId: 'listDids',
  path: '/',
  tags: ['DIDs'],
  summary: "List the tenant's DIDs and the system DEFAULT, newest first",
  security: guarded,
  request: { query: DidListQuery },
  responses: {
    200: jsonResponse(listEnvelopeSchema(DidSchema), 'A page of DIDs'),
    ...pick(400, 401, 403, 500),
  },
});

export const registerListDids = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listDidsRoute, async (c) => {
    const { db, settings } = c.get('services');
    const query = c.req.valid('query');
    const page = parsePage(query, settings);
    const { rows, total } = await listDids(db, c.get('principal').tenantId, query, page);
    return c.json(listEnvelope(rows.map(toDidResponse), total, page), 200);
  });
