import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { updateDid } from '../../core/dids/did-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { DidIdParam, DidSchema, toDidResponse, UpdateDidBody } from './schemas.ts';

export const updateDidRoute = createRoute({
  method: 'patch',
  operationId: 'updateDid',
  path: '/{id}',
  tags: ['DIDs'],
  summary: 'Update name, description or isDefault of a tenant-owned DID',
  description: 'Setting isDefault demotes the previous default (one per tenant). The system DEFAULT is read-only (403).',
  security: guarded,
  request: { params: DidIdParam, body: jsonBody(UpdateDidBody) },
  responses: {
    200: jsonResponse(DidSchema, 'The updated DID'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerUpdateDid = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateDidRoute, async (c) => {
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateDidBody.shape));
    const row = await updateDid(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id, patch);
    return c.json(toDidResponse(row), 200);
  });
