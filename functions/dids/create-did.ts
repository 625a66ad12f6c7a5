import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { createDid } from '../../core/dids/did-operations.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { createDidExample, createdDidExample } from './openapi-examples.ts';
import { badGateway, CreateDidBody, DidSchema, toDidResponse } from './schemas.ts';

export const createDidRoute = createRoute({
  method: 'post',
  operationId: 'createDid',
  path: '/',
  tags: ['DIDs'],
  summary: 'Create a MANAGED or SELF_MANAGED did:web through the VC service',
  description:
    'MANAGED becomes ACTIVE; SELF_MANAGED is UNVERIFIED until verified. 403 for a self-managed alias equal to the system VC host; 409 for a used alias or did.',
  security: guarded,
  request: { body: jsonBody(CreateDidBody, 'The DID to create on the VC service', createDidExample) },
  responses: {
    201: jsonResponse(DidSchema, 'The created DID', createdDidExample),
    ...pick(400, 401, 403, 404, 409, 413, 500),
    ...badGateway,
  },
});

export const registerCreateDid = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createDidRoute, async (c) => {
    const row = await createDid(requestDeps(c), c.get('principal').tenantId, c.req.valid('json'));
    return c.json(toDidResponse(row), 201);
  });
