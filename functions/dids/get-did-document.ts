import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { didDocument } from '../../core/dids/did-operations.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { badGateway, DidIdParam } from './schemas.ts';

export const getDidDocumentRoute = createRoute({
  method: 'get',
  operationId: 'getDidDocument',
  path: '/{id}/document',
  tags: ['DIDs'],
  summary: 'The DID document, from the VC service (DEFAULT, MANAGED) or the hosting location (SELF_MANAGED)',
  security: guarded,
  request: { params: DidIdParam },
  responses: {
    200: jsonResponse(z.record(z.string(), z.unknown()).openapi('DidDocument'), 'The DID document'),
    ...pick(401, 403, 404, 500),
    ...badGateway,
  },
});

export const registerGetDidDocument = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getDidDocumentRoute, async (c) => {
    const document = await didDocument(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    return c.json(document, 200);
  });
