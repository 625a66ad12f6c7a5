import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { loadVisibleDid } from '../../core/dids/did-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { DidIdParam, DidSchema, toDidResponse } from './schemas.ts';

export const getDidRoute = createRoute({
  method: 'get',
  operationId: 'getDid',
  path: '/{id}',
  tags: ['DIDs'],
  summary: 'Get a DID (own or the system DEFAULT)',
  security: guarded,
  request: { params: DidIdParam },
  responses: {
    200: jsonResponse(DidSchema, 'The DID'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetDid = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getDidRoute, async (c) => {
    const row = await loadVisibleDid(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    return c.json(toDidResponse(row), 200);
  });
