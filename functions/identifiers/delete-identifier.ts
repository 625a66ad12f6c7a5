import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteIdentifier } from '../../core/identifiers/identifier-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { IdentifierIdParam } from './schemas.ts';

export const deleteIdentifierRoute = createRoute({
  method: 'delete',
  operationId: 'deleteIdentifier',
  path: '/{id}',
  tags: ['Identifiers'],
  summary: 'Delete one of the tenant’s identifiers',
  description:
    'Never blocked by the records that use the identifier; they remain. Organisations, facilities and ' +
    'products that have it as primaryIdentifierId get primaryIdentifierId null, and it is removed from ' +
    'their secondaryIdentifierIds. Both follow in the same statement (database foreign keys).',
  security: guarded,
  request: { params: IdentifierIdParam },
  responses: {
    204: { description: 'Deleted' },
    ...pick(401, 403, 404, 500),
  },
});

export const registerDeleteIdentifier = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteIdentifierRoute, async (c) => {
    await deleteIdentifier(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
