import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { importDid } from '../../core/dids/did-operations.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { importDidExample, importedDidExample } from './openapi-examples.ts';
import { DidSchema, ImportDidBody, toDidResponse } from './schemas.ts';

export const importDidRoute = createRoute({
  method: 'post',
  operationId: 'importDid',
  path: '/import',
  tags: ['DIDs'],
  summary: 'Record a did:web the tenant already holds (SELF_MANAGED, UNVERIFIED), without calling the VC service',
  security: guarded,
  request: { body: jsonBody(ImportDidBody, 'The DID to import, and the key of the VC service that signs for it', importDidExample) },
  responses: {
    201: jsonResponse(DidSchema, 'The imported DID', importedDidExample),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerImportDid = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(importDidRoute, async (c) => {
    const row = await importDid(requestDeps(c), c.get('principal').tenantId, c.req.valid('json'));
    return c.json(toDidResponse(row), 201);
  });
