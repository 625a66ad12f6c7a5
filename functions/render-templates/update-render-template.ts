import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { badRequest } from '../../core/errors.ts';
import { updateTemplate } from '../../core/render-templates/template-repository.ts';
import { RenderTemplateSchema, toRenderTemplateResponse } from '../platform/embedded/render-template.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { PATCHABLE, TemplateIdParam, UpdateRenderTemplateBody } from './schemas.ts';
import { storageDown } from './storage-failure-response.ts';

export const updateRenderTemplateRoute = createRoute({
  method: 'patch',
  operationId: 'updateRenderTemplate',
  path: '/{id}',
  tags: ['Render templates'],
  summary: 'Change one of the tenant’s templates',
  description:
    'Needs one of name, template, isDefault, inline, mediaType, mediaQuery (storageOptions alone is a 400 and is read ' +
    'only with template). Storage is resolved before the template is looked up. For RenderTemplate2024, null ' +
    'mediaType resets to text/html and null mediaQuery clears it. New content replaces the old (deleted best-effort).',
  security: guarded,
  request: { params: TemplateIdParam, body: jsonBody(UpdateRenderTemplateBody) },
  responses: { 200: jsonResponse(RenderTemplateSchema, 'The updated template'), ...pick(400, 401, 403, 404, 409, 413, 500), ...storageDown },
});

export const registerUpdateRenderTemplate = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateRenderTemplateRoute, async (c) => {
    const body = c.req.valid('json');
    if (!PATCHABLE.some((k) => (body as Record<string, unknown>)[k] !== undefined)) {
      throw badRequest(`body: at least one of ${PATCHABLE.join(', ')} is required`);
    }
    const { storageUrl: _a, digestMultibase: _b, hash: _c, renderMethodType: _d, dataModelId: _e, ...patch } = body;
    const row = await updateTemplate(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id, patch);
    return c.json(toRenderTemplateResponse(row), 200);
  });
