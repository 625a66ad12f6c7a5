import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  createDataModel,
  deleteDataModel,
  findDataModel,
  listDataModels,
  updateDataModel,
} from '../../core/data-models/data-model-repository.ts';
import { formConfigFor } from '../../core/data-models/form-config.ts';
import { notFound } from '../../core/errors.ts';
import { templatesOfModel } from '../../core/render-templates/template-repository.ts';
import { deleteContentBestEffort } from '../../core/render-templates/template-storage.ts';
import { templateDeps } from '../render-templates/routes.ts';
import { toRenderTemplateResponse } from '../render-templates/schemas.ts';
import type { AppEnv } from '../platform/env.ts';
import { booleanFilter } from '../platform/filters.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import {
  CreateDataModelBody,
  DataModelDetailSchema,
  DataModelIdParam,
  DataModelSchema,
  RECOGNISED_PATCH_FIELDS,
  toDataModelResponse,
  UpdateDataModelBody,
} from './schemas.ts';

const tags = ['Data models'];

const listRoute = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'Core models and the tenant’s (and system) extensions',
  security: guarded,
  request: {
    query: z.object({
      credentialType: z.string().optional(),
      version: z.string().optional(),
      isExtension: booleanFilter(),
      ...pageQuerySchema,
    }),
  },
  responses: { 200: jsonResponse(listEnvelopeSchema(DataModelSchema), 'A page of data models'), ...pick(400, 401, 403, 500) },
});
const createRouteDef = createRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Create an extension of a core data model',
  description:
    'The parent must be a visible core model: missing or another tenant’s is one 404; an extension as parent is a 400. ' +
    'Name is unique per tenant, credentialType, version and isExtension (409).',
  security: guarded,
  request: { body: jsonBody(CreateDataModelBody) },
  responses: { 201: jsonResponse(DataModelSchema, 'The extension'), ...pick(400, 401, 403, 404, 409, 413, 500) },
});
const getRoute = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One model with its parent, extensions and render templates',
  security: guarded,
  request: { params: DataModelIdParam },
  responses: { 200: jsonResponse(DataModelDetailSchema, 'The data model'), ...pick(401, 403, 404, 500) },
});
const formConfigRoute = createRoute({
  method: 'get',
  path: '/{id}/form-config',
  tags,
  summary: 'Entity pickers a credential form of this model needs',
  security: guarded,
  request: { params: DataModelIdParam },
  responses: {
    200: jsonResponse(z.object({ credentialType: z.string(), sections: z.array(z.record(z.string(), z.unknown())) }), 'Form sections'),
    ...pick(401, 403, 404, 500),
  },
});
const updateRoute = createRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Change one of the tenant’s extensions (name and URLs)',
  description: 'Core and system models are read-only (403). credentialType, version, isExtension and parentConfigId are immutable (400).',
  security: guarded,
  request: { params: DataModelIdParam, body: jsonBody(UpdateDataModelBody) },
  responses: { 200: jsonResponse(DataModelSchema, 'The updated extension'), ...pick(400, 401, 403, 404, 409, 413, 500) },
});
const deleteRoute = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete one of the tenant’s extensions and its render templates',
  security: guarded,
  request: { params: DataModelIdParam },
  responses: { 204: { description: 'Deleted' }, ...pick(401, 403, 404, 409, 500) },
});

export const registerDataModelRoutes = (app: OpenAPIHono<AppEnv>) => {
  app.openapi(listRoute, async (c) => {
    const { limit, offset, ...filter } = c.req.valid('query');
    const page = parsePage({ limit, offset }, c.get('services').settings);
    const { rows, total } = await listDataModels(c.get('services').db, c.get('principal').tenantId, filter, page);
    return c.json(listEnvelope(rows.map(toDataModelResponse), total, page), 200);
  });
  app.openapi(createRouteDef, async (c) => {
    const { db, settings } = c.get('services');
    const row = await createDataModel(db, c.get('principal').tenantId, c.req.valid('json'), settings.allowPrivateUrls);
    return c.json(toDataModelResponse(row), 201);
  });
  app.openapi(getRoute, async (c) => {
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
  app.openapi(formConfigRoute, async (c) => {
    const row = await findDataModel(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Data model');
    return c.json(formConfigFor(row.credentialType), 200);
  });
  app.openapi(updateRoute, async (c) => {
    const { db, settings } = c.get('services');
    const body = c.req.valid('json');
    const patch = requireRecognisedField(
      { name: body.name, schemaUrl: body.schemaUrl, contextUrl: body.contextUrl, websiteUrl: body.websiteUrl },
      RECOGNISED_PATCH_FIELDS,
    );
    const row = await updateDataModel(db, c.get('principal').tenantId, c.req.valid('param').id, patch, settings.allowPrivateUrls);
    return c.json(toDataModelResponse(row), 200);
  });
  app.openapi(deleteRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const templates = await templatesOfModel(db, tenantId, id);
    await deleteDataModel(db, tenantId, id);
    // The cascade removed the template rows; their stored content goes best-effort.
    await deleteContentBestEffort(templateDeps(c), templates);
    return c.body(null, 204);
  });
};
