import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findScheme, updateScheme } from '../../core/schemes/scheme-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { SchemeWithRegistrarSchema, toSchemeWithRegistrarResponse } from '../platform/embedded/scheme.ts';
import { SchemeIdParam, UpdateSchemeBody } from './schemas.ts';

export const updateSchemeRoute = createRoute({
  method: 'patch',
  operationId: 'updateScheme',
  path: '/{id}',
  tags: ['Identifier schemes'],
  summary: 'Update a tenant-owned scheme',
  description:
    'All changes apply in one transaction or not at all. `qualifiers` replaces the whole set ([] removes ' +
    'them all); `idrServiceInstanceId: null` clears it; no other field may be null. The registrar cannot ' +
    'be changed. A new validationPattern applies to identifiers created or updated from now on; existing ' +
    'identifiers are not re-checked. System defaults are read-only (403).',
  security: guarded,
  request: { params: SchemeIdParam, body: jsonBody(UpdateSchemeBody) },
  responses: {
    200: jsonResponse(SchemeWithRegistrarSchema, 'The updated scheme with its registrar and qualifiers'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerUpdateScheme = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateSchemeRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateSchemeBody.shape));
    await updateScheme(db, tenantId, id, patch);
    const row = await findScheme(db, tenantId, id);
    return c.json(toSchemeWithRegistrarResponse(row!), 200);
  });
