import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/errors.ts';
import { findIdentifier } from '../../core/identifiers/identifier-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { IdentifierWithSchemeSchema, toIdentifierWithSchemeResponse } from '../platform/embedded/identifier.ts';
import { IdentifierIdParam } from './schemas.ts';

export const getIdentifierRoute = createRoute({
  method: 'get',
  operationId: 'getIdentifier',
  path: '/{id}',
  tags: ['Identifiers'],
  summary: 'Get one of the tenant’s identifiers with its scheme, registrar and qualifiers',
  security: guarded,
  request: { params: IdentifierIdParam },
  responses: {
    200: jsonResponse(IdentifierWithSchemeSchema, 'The identifier'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetIdentifier = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getIdentifierRoute, async (c) => {
    const row = await findIdentifier(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Identifier');
    return c.json(toIdentifierWithSchemeResponse(row), 200);
  });
