import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { createDataModel } from '../../core/data-models/data-model-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { CreateDataModelBody, DataModelSchema, toDataModelResponse } from './schemas.ts';

export const createDataModelRoute = createRoute({
  method: 'post',
  operationId: 'createDataModel',
  path: '/',
  tags: ['Data models'],
  summary: 'Create an extension of a core data model',
  description:
    'The parent must be a visible core model: missing or another tenant’s is one 404; an extension as parent is a 400. ' +
    'Name is unique per tenant, credentialType, version and isExtension (409).',
  security: guarded,
  request: { body: jsonBody(CreateDataModelBody) },
  responses: { 201: jsonResponse(DataModelSchema, 'The extension'), ...pick(400, 401, 403, 404, 409, 413, 500) },
});

export const registerCreateDataModel = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createDataModelRoute, async (c) => {
    const { db, settings } = c.get('services');
    const row = await createDataModel(db, c.get('principal').tenantId, c.req.valid('json'), settings.allowPrivateUrls);
    return c.json(toDataModelResponse(row), 201);
  });
