import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { createIdentifier, findIdentifier } from '../../core/identifiers/identifier-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { IdentifierWithSchemeSchema, toIdentifierWithSchemeResponse } from '../platform/embedded/identifier.ts';
import { CreateIdentifierBody } from './schemas.ts';

export const createIdentifierRoute = createRoute({
  method: 'post',
  operationId: 'createIdentifier',
  path: '/',
  tags: ['Identifiers'],
  summary: 'Create an identifier under a scheme the tenant can see',
  description:
    "The value must contain a non-whitespace character and match the scheme's validationPattern (400). " +
    'It is unique per scheme within the tenant (409, nothing written). The identifier belongs to the tenant ' +
    'alone, also under a system scheme.',
  security: guarded,
  request: { body: jsonBody(CreateIdentifierBody) },
  responses: {
    201: jsonResponse(IdentifierWithSchemeSchema, 'The created identifier with its scheme, registrar and qualifiers'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerCreateIdentifier = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createIdentifierRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const id = await createIdentifier(db, tenantId, c.req.valid('json'));
    const row = await findIdentifier(db, tenantId, id);
    return c.json(toIdentifierWithSchemeResponse(row!), 201);
  });
