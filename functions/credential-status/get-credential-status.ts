import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { readStatus } from '../../core/credential-status/status-view.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { COMMON_ERRORS, CredentialIdParam, FreshQuery, statusErrorResponses, StatusViewSchema, toViewResponse } from './schemas.ts';
import { statusDeps } from './status-deps.ts';

export const getCredentialStatusRoute = createRoute({
  method: 'get',
  operationId: 'getCredentialStatus',
  path: '/{id}/status',
  tags: ['Credential status'],
  summary: "A credential's status entries as recorded, optionally read fresh from the VC service",
  description:
    'Each entry: its last observed value, version (send it as If-Version), and the pending operation if any. ' +
    '`fresh=true` also reads every entry from the VC service (nothing is written): `observed` and `failures`. Not cached (no-store).',
  security: guarded,
  request: { params: CredentialIdParam, query: FreshQuery },
  responses: {
    200: jsonResponse(StatusViewSchema, 'The recorded status'),
    ...pick(401, 500),
    ...statusErrorResponses([...COMMON_ERRORS, 'EXTERNAL_CREDENTIAL_STATUS_NOT_MANAGEABLE']),
  },
});

export const registerGetCredentialStatus = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getCredentialStatusRoute, async (c) => {
    const view = await readStatus(statusDeps(c), {
      tenantId: c.get('principal').tenantId,
      credentialId: c.req.valid('param').id,
      fresh: c.req.valid('query').fresh ?? false,
    });
    c.header('cache-control', 'no-store');
    return c.json(toViewResponse(view), 200);
  });
