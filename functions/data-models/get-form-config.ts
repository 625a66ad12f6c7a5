import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { findDataModel } from '../../core/data-models/data-model-repository.ts';
import { formConfigFor } from '../../core/data-models/form-config.ts';
import { notFound } from '../../core/errors.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { DataModelIdParam } from './schemas.ts';

export const getFormConfigRoute = createRoute({
  method: 'get',
  operationId: 'getFormConfig',
  path: '/{id}/form-config',
  tags: ['Data models'],
  summary: 'Entity pickers a credential form of this model needs',
  description: 'By the model’s own credentialType: empty sections for a type outside the five registered ones.',
  security: guarded,
  request: { params: DataModelIdParam },
  responses: {
    200: jsonResponse(z.object({ credentialType: z.string(), sections: z.array(z.record(z.string(), z.unknown())) }), 'Form sections'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetFormConfig = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getFormConfigRoute, async (c) => {
    const row = await findDataModel(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Data model');
    return c.json(formConfigFor(row.credentialType), 200);
  });
