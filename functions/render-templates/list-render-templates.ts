import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listTemplates } from '../../core/render-templates/template-repository.ts';
import { RenderTemplateSchema, toRenderTemplateResponse } from '../platform/embedded/render-template.ts';
import type { AppEnv } from '../platform/env.ts';
import { idText } from '../platform/fields.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { requestDeps } from '../platform/request-deps.ts';

export const listRenderTemplatesRoute = createRoute({
  method: 'get',
  operationId: 'listRenderTemplates',
  path: '/',
  tags: ['Render templates'],
  summary: 'Own and system templates',
  security: guarded,
  request: { query: z.object({ dataModelId: idText().optional(), ...pageQuerySchema }) },
  responses: { 200: jsonResponse(listEnvelopeSchema(RenderTemplateSchema), 'A page of templates'), ...pick(400, 401, 403, 500) },
});

export const registerListRenderTemplates = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listRenderTemplatesRoute, async (c) => {
    const { dataModelId, limit, offset } = c.req.valid('query');
    const page = parsePage({ limit, offset }, c.get('services').settings);
    const { rows, total } = await listTemplates(requestDeps(c), c.get('principal').tenantId, { dataModelId }, page);
    return c.json(listEnvelope(rows.map(toRenderTemplateResponse), total, page), 200);
  });
