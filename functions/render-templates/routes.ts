import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { badRequest, notFound } from '../../core/errors.ts';
import {
  createTemplate,
  deleteTemplate,
  findTemplate,
  listTemplates,
  updateTemplate,
} from '../../core/render-templates/template-repository.ts';
import type { TemplateDeps } from '../../core/render-templates/template-storage.ts';
import type { AppEnv } from '../platform/env.ts';
import { idText } from '../platform/fields.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import {
  CreateRenderTemplateBody,
  PATCHABLE,
  RenderTemplateSchema,
  TemplateIdParam,
  toRenderTemplateResponse,
  UpdateRenderTemplateBody,
} from './schemas.ts';

const tags = ['Render templates'];
export const templateDeps = (c: Context<AppEnv>): TemplateDeps => {
  const { db, secretBox, fetcher, logger, settings } = c.get('services');
  return { db, box: secretBox, fetcher, logger, allowPrivateUrls: settings.allowPrivateUrls, correlationId: c.get('correlationId') };
};
const storageDown = { 502: jsonResponse(z.object({ error: z.string(), code: z.string() }), 'The storage service failed') };

const createDef = createRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Create a render template: content sanitised, uploaded to storage, metadata stored',
  description:
    '404 names the lookup that failed (dataModelId or storageOptions.serviceInstanceId). storageUrl, digestMultibase ' +
    'and hash are server-managed (400). inline, mediaType and mediaQuery belong to RenderTemplate2024 only.',
  security: guarded,
  request: { body: jsonBody(CreateRenderTemplateBody) },
  responses: { 201: jsonResponse(RenderTemplateSchema, 'The template'), ...pick(400, 401, 403, 404, 409, 413, 500), ...storageDown },
});
const listDef = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'Own and system templates',
  security: guarded,
  request: { query: z.object({ dataModelId: idText().optional(), ...pageQuerySchema }) },
  responses: { 200: jsonResponse(listEnvelopeSchema(RenderTemplateSchema), 'A page of templates'), ...pick(400, 401, 403, 500) },
});
const getDef = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One own or system template',
  security: guarded,
  request: { params: TemplateIdParam },
  responses: { 200: jsonResponse(RenderTemplateSchema, 'The template'), ...pick(401, 403, 404, 500) },
});
const updateDef = createRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Change one of the tenant’s templates',
  description:
    'Needs one of name, template, isDefault, inline, mediaType, mediaQuery (storageOptions alone is a 400 and is read ' +
    'only with template). Storage is resolved before the template is looked up. For RenderTemplate2024, null ' +
    'mediaType resets to text/html and null mediaQuery clears it. New content replaces the old (deleted best-effort).',
  security: guarded,
  request: { params: TemplateIdParam, body: jsonBody(UpdateRenderTemplateBody) },
  responses: { 200: jsonResponse(RenderTemplateSchema, 'The updated template'), ...pick(400, 401, 403, 404, 409, 413, 500), ...storageDown },
});
const deleteDef = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete one of the tenant’s templates (stored content deleted best-effort)',
  security: guarded,
  request: { params: TemplateIdParam },
  responses: { 204: { description: 'Deleted' }, ...pick(401, 403, 404, 500) },
});

export const registerRenderTemplateRoutes = (app: OpenAPIHono<AppEnv>) => {
  app.openapi(createDef, async (c) => {
    const { storageUrl: _a, digestMultibase: _b, hash: _c, ...input } = c.req.valid('json');
    const row = await createTemplate(templateDeps(c), c.get('principal').tenantId, input);
    return c.json(toRenderTemplateResponse(row), 201);
  });
  app.openapi(listDef, async (c) => {
    const { dataModelId, limit, offset } = c.req.valid('query');
    const page = parsePage({ limit, offset }, c.get('services').settings);
    const { rows, total } = await listTemplates(templateDeps(c), c.get('principal').tenantId, { dataModelId }, page);
    return c.json(listEnvelope(rows.map(toRenderTemplateResponse), total, page), 200);
  });
  app.openapi(getDef, async (c) => {
    const row = await findTemplate(templateDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Render template');
    return c.json(toRenderTemplateResponse(row), 200);
  });
  app.openapi(updateDef, async (c) => {
    const body = c.req.valid('json');
    if (!PATCHABLE.some((k) => (body as Record<string, unknown>)[k] !== undefined)) {
      throw badRequest(`body: at least one of ${PATCHABLE.join(', ')} is required`);
    }
    const { storageUrl: _a, digestMultibase: _b, hash: _c, renderMethodType: _d, dataModelId: _e, ...patch } = body;
    const row = await updateTemplate(templateDeps(c), c.get('principal').tenantId, c.req.valid('param').id, patch);
    return c.json(toRenderTemplateResponse(row), 200);
  });
  app.openapi(deleteDef, async (c) => {
    await deleteTemplate(templateDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    return c.body(null, 204);
  });
};
