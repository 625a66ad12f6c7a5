import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/errors.ts';
import { findTemplate } from '../../core/render-templates/template-repository.ts';
import { RenderTemplateSchema, toRenderTemplateResponse } from '../platform/embedded/render-template.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { TemplateIdParam } from './schemas.ts';

export const getRenderTemplateRoute = createRoute({
  method: 'get',
  operationId: 'getRenderTemplate',
  path: '/{id}',
  tags: ['Render templates'],
  summary: 'One own or system template',
  security: guarded,
  request: { params: TemplateIdParam },
  responses: { 200: jsonResponse(RenderTemplateSchema, 'The template'), ...pick(401, 403, 404, 500) },
});

export const registerGetRenderTemplate = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getRenderTemplateRoute, async (c) => {
    const row = await findTemplate(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Render template');
    return c.json(toRenderTemplateResponse(row), 200);
  });
