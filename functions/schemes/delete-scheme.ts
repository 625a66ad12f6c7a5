import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteScheme } from '../../core/schemes/scheme-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { SchemeIdParam } from './schemas.ts';

export const deleteSchemeRoute = createRoute({
  method: 'delete',
  operationId: 'deleteScheme',
  path: '/{id}',
  tags: ['Identifier schemes'],
  summary: 'Delete a tenant-owned scheme with its qualifiers',
  description:
    'Refused with 409 SCHEME_IN_USE (nothing removed) while identifiers reference the scheme. System ' +
    'defaults are read-only (403).',
  security: guarded,
  request: { params: SchemeIdParam },
  responses: {
    204: { description: 'Deleted' },
    ...pick(401, 403, 404, 409, 500),
  },
});

export const registerDeleteScheme = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteSchemeRoute, async (c) => {
    await deleteScheme(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
