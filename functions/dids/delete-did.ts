import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteDid } from '../../core/dids/did-operations.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { DidIdParam } from './schemas.ts';

export const deleteDidRoute = createRoute({
  method: 'delete',
  operationId: 'deleteDid',
  path: '/{id}',
  tags: ['DIDs'],
  summary: 'Delete a tenant-owned DID',
  description:
    'Removes the local record, then best-effort the upstream DID when an instance is still associated (a failure is logged). A default DID must be cleared first (409).',
  security: guarded,
  request: { params: DidIdParam },
  responses: {
    204: { description: 'Deleted' },
    ...pick(401, 403, 404, 409, 500),
  },
});

export const registerDeleteDid = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteDidRoute, async (c) => {
    await deleteDid(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
