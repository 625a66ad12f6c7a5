import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findDataModel } from '../../core/data-models/data-model-repository.ts';
import { notFound } from '../../core/errors.ts';
import { templatesOfModel } from '../../core/render-templates/template-repository.ts';
import { toRenderTemplateResponse } from '../platform/embedded/render-template.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { DataModelDetailSchema, DataModelIdParam, toDataModelResponse } from './schemas.ts';

export const getDataModelRoute = createRoute({
  method: 'get',
  operationId: 'getDataModel',
  path: '/{id}',
  tags: ['Data models'],
  summary: 'One model with its parent, extensions and render templates',
  security: guarded,
  request: { params: DataModelIdParam },
  responses: { 200: jsonResponse(DataModelDetailSchema, 'The data model'), ...pick(401, 403, 404, 500) },
});

export const registerGetDataModel = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getDataModelRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const row = await findDataModel(db, tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Data model');
    const templates = await templatesOfModel(db, tenantId, row.id);
    return c.json(
      {
        ...toDataModelResponse(row),
        parentConfig: row.parentConfig ? toDataModelResponse(row.parentConfig) : null,
        extensions: row.extensions.map(toDataModelResponse),
        renderTemplates: templates.map(toRenderTemplateResponse),
      },
      200,
    );
  });
