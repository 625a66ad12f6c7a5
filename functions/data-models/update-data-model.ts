import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { updateDataModel } from '../../core/data-models/data-model-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { DataModelIdParam, DataModelSchema, RECOGNISED_PATCH_FIELDS, toDataModelResponse, UpdateDataModelBody } from './schemas.ts';

export const updateDataModelRoute = createRoute({
  method: 'patch',
  operationId: 'updateDataModel',
  path: '/{id}',
  tags: ['Data models'],
  summary: 'Change one of the tenant’s extensions (name and URLs)',
  description: 'Core and system models are read-only (403). credentialType, version, isExtension and parentConfigId are immutable (400).',
  security: guarded,
  request: { params: DataModelIdParam, body: jsonBody(UpdateDataModelBody) },
  responses: { 200: jsonResponse(DataModelSchema, 'The updated extension'), ...pick(400, 401, 403, 404, 409, 413, 500) },
});

export const registerUpdateDataModel = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateDataModelRoute, async (c) => {
    const { db, settings } = c.get('services');
    const body = c.req.valid('json');
    const patch = requireRecognisedField(
      { name: body.name, schemaUrl: body.schemaUrl, contextUrl: body.contextUrl, websiteUrl: body.websiteUrl },
      RECOGNISED_PATCH_FIELDS,
    );
    const row = await updateDataModel(db, c.get('principal').tenantId, c.req.valid('param').id, patch, settings.allowPrivateUrls);
    return c.json(toDataModelResponse(row), 200);
  });
