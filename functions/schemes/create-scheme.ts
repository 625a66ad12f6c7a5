import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { createScheme, findScheme } from '../../core/schemes/scheme-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { SchemeWithRegistrarSchema, toSchemeWithRegistrarResponse } from '../platform/embedded/scheme.ts';
import { CreateSchemeBody } from './schemas.ts';

export const createSchemeRoute = createRoute({
  method: 'post',
  operationId: 'createScheme',
  path: '/',
  tags: ['Identifier schemes'],
  summary: 'Create an identifier scheme with its qualifiers',
  description:
    'The registrar may be the tenant’s own or a system default; the scheme belongs to the tenant either way. ' +
    'Optional fields are omitted to skip them (explicit null is a 400). 409 when the registrar already has ' +
    'a scheme with this primaryKey; nothing is written.',
  security: guarded,
  request: { body: jsonBody(CreateSchemeBody) },
  responses: {
    201: jsonResponse(SchemeWithRegistrarSchema, 'The created scheme with its registrar and qualifiers'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerCreateScheme = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createSchemeRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const id = await createScheme(db, tenantId, c.req.valid('json'));
    const row = await findScheme(db, tenantId, id);
    return c.json(toSchemeWithRegistrarResponse(row!), 201);
  });
