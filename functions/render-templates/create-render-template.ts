import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { createTemplate } from '../../core/render-templates/template-repository.ts';
import { RenderTemplateSchema, toRenderTemplateResponse } from '../platform/embedded/render-template.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { CreateRenderTemplateBody } from './schemas.ts';
import { storageDown } from './storage-failure-response.ts';

export const createRenderTemplateRoute = createRoute({
  method: 'post',
  operationId: 'createRenderTemplate',
  path: '/',
  tags: ['Render templates'],
  summary: 'Create a render template: content sanitised, uploaded to storage, metadata stored',
  description:
    '404 names the lookup that failed (dataModelId or storageOptions.serviceInstanceId). storageUrl, digestMultibase ' +
    'and hash are server-managed (400). inline, mediaType and mediaQuery are not applicable to WebRenderingTemplate2022 (400).',
  security: guarded,
  request: { body: jsonBody(CreateRenderTemplateBody) },
  responses: { 201: jsonResponse(RenderTemplateSchema, 'The template'), ...pick(400, 401, 403, 404, 409, 413, 500), ...storageDown },
});

export const registerCreateRenderTemplate = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createRenderTemplateRoute, async (c) => {
    const { storageUrl: _a, digestMultibase: _b, hash: _c, ...input } = c.req.valid('json');
    const row = await createTemplate(requestDeps(c), c.get('principal').tenantId, input);
    return c.json(toRenderTemplateResponse(row), 201);
  });
