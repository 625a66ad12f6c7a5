import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/errors.ts';
import { findRegistrarWithSchemes } from '../../core/registrars/registrar-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { RegistrarIdParam, RegistrarWithSchemesSchema, toRegistrarWithSchemesResponse } from './schemas.ts';

export const getRegistrarRoute = createRoute({
  method: 'get',
  operationId: 'getRegistrar',
  path: '/{id}',
  tags: ['Registrars'],
  summary: 'Get a registrar with its schemes and their qualifiers',
  security: guarded,
  request: { params: RegistrarIdParam },
  responses: {
    200: jsonResponse(RegistrarWithSchemesSchema, 'The registrar'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetRegistrar = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getRegistrarRoute, async (c) => {
    const row = await findRegistrarWithSchemes(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Registrar');
    return c.json(toRegistrarWithSchemesResponse(row), 200);
  });
