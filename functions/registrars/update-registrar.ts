import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertPublicUrl } from '../../core/net/public-url.ts';
import { findRegistrarWithSchemes, updateRegistrar } from '../../core/registrars/registrar-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { RegistrarIdParam, RegistrarWithSchemesSchema, toRegistrarWithSchemesResponse, UpdateRegistrarBody } from './schemas.ts';

export const updateRegistrarRoute = createRoute({
  method: 'patch',
  operationId: 'updateRegistrar',
  path: '/{id}',
  tags: ['Registrars'],
  summary: 'Update a tenant-owned registrar',
  description: 'name, namespace and url cannot be null; idrServiceInstanceId null clears it.',
  security: guarded,
  request: { params: RegistrarIdParam, body: jsonBody(UpdateRegistrarBody) },
  responses: {
    200: jsonResponse(RegistrarWithSchemesSchema, 'The updated registrar'),
    ...pick(400, 401, 403, 404, 413, 500),
  },
});

export const registerUpdateRegistrar = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateRegistrarRoute, async (c) => {
    const { db, settings } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateRegistrarBody.shape));
    if (patch.url !== undefined) assertPublicUrl('url', patch.url, settings.allowPrivateUrls);
    await updateRegistrar(db, tenantId, id, patch);
    const row = await findRegistrarWithSchemes(db, tenantId, id);
    return c.json(toRegistrarWithSchemesResponse(row!), 200);
  });
