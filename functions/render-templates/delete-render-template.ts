import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { deleteTemplate } from '../../core/render-templates/template-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { TemplateIdParam } from './schemas.ts';

export const deleteRenderTemplateRoute = createRoute({
  method: 'delete',
  operationId: 'deleteRenderTemplate',
  path: '/{id}',
  tags: ['Render templates'],
  summary: 'Delete one of the tenant’s templates (stored content deleted best-effort)',
  security: guarded,
  request: { params: TemplateIdParam },
  responses: { 204: { description: 'Deleted' }, ...pick(401, 403, 404, 500) },
});

export const registerDeleteRenderTemplate = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(deleteRenderTemplateRoute, async (c) => {
    await deleteTemplate(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
