import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertPublicUrl } from '../../core/net/public-url.ts';
import { createRegistrar } from '../../core/registrars/registrar-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { toRegistrarResponse } from '../platform/embedded/registrar.ts';
import { CreateRegistrarBody, RegistrarWithSchemesSchema } from './schemas.ts';

export const createRegistrarRoute = createRoute({
  method: 'post',
  operationId: 'createRegistrar',
  path: '/',
  tags: ['Registrars'],
  summary: 'Create a registrar',
  security: guarded,
  request: { body: jsonBody(CreateRegistrarBody) },
  responses: {
    201: jsonResponse(RegistrarWithSchemesSchema, 'The created registrar (no schemes yet)'),
    ...pick(400, 401, 403, 404, 413, 500),
  },
});

export const registerCreateRegistrar = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createRegistrarRoute, async (c) => {
    const { db, settings } = c.get('services');
    const body = c.req.valid('json');
    assertPublicUrl('url', body.url, settings.allowPrivateUrls);
    const row = await createRegistrar(db, c.get('principal').tenantId, body);
    return c.json({ ...toRegistrarResponse(row), schemes: [] }, 201);
  });
