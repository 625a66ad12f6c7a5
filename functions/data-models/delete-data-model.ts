import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteDataModel } from '../../core/data-models/data-model-repository.ts';
import { templatesOfModel } from '../../core/render-templates/template-repository.ts';
import { deleteContentBestEffort } from '../../core/render-templates/template-storage.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { DataModelIdParam } from './schemas.ts';

export const deleteDataModelRoute = createRoute({
  method: 'delete',
  operationId: 'deleteDataModel',
  path: '/{id}',
  tags: ['Data models'],
  summary: 'Delete one of the tenant’s extensions and its render templates',
  security: guarded,
  request: { params: DataModelIdParam },
  responses: { 204: { description: 'Deleted' }, ...pick(401, 403, 404, 409, 500) },
});

export const registerDeleteDataModel = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteDataModelRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const templates = await templatesOfModel(db, tenantId, id);
    await deleteDataModel(db, tenantId, id);
    // The cascade removed the template rows; their stored content goes best-effort.
    await deleteContentBestEffort(requestDeps(c), templates);
    return c.body(null, 204);
  });
