import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/errors.ts';
import { findScheme } from '../../core/schemes/scheme-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { SchemeWithRegistrarSchema, toSchemeWithRegistrarResponse } from '../platform/embedded/scheme.ts';
import { SchemeIdParam } from './schemas.ts';

export const getSchemeRoute = createRoute({
  method: 'get',
  operationId: 'getScheme',
  path: '/{id}',
  tags: ['Identifier schemes'],
  summary: 'Get a scheme (tenant-owned or system default) with its registrar and qualifiers',
  security: guarded,
  request: { params: SchemeIdParam },
  responses: {
    200: jsonResponse(SchemeWithRegistrarSchema, 'The scheme'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetScheme = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getSchemeRoute, async (c) => {
    const row = await findScheme(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Identifier scheme');
    return c.json(toSchemeWithRegistrarResponse(row), 200);
  });
