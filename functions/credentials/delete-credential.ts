import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteIssuedCredential } from '../../core/credentials/delete-credential.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { credentialIdOf, CredentialIdParam } from './schemas.ts';

export const deleteCredentialRoute = createRoute({
  method: 'delete',
  operationId: 'deleteCredential',
  path: '/{id}',
  tags: ['Credentials'],
  summary: 'Delete an issued credential record, and best-effort its stored copy',
  description: 'Revokes nothing and leaves published links in place. Frees the Idempotency-Key that issued it. A foreign id is the 404 of a missing one.',
  security: guarded,
  request: { params: CredentialIdParam },
  responses: {
    204: { description: 'Deleted' },
    ...pick(401, 403, 404, 500),
  },
});

export const registerDeleteCredential = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteCredentialRoute, async (c) => {
    const id = credentialIdOf(c.req.valid('param'));
    await deleteIssuedCredential(requestDeps(c), c.get('principal').tenantId, id);
    return c.body(null, 204);
  });
