import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { renderMethodOfTemplate } from '../../core/render-templates/render-method.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { TemplateIdParam } from './schemas.ts';

const RenderMethodSchema = z
  .object({
    type: z.union([z.string(), z.array(z.string())]).openapi({ description: '["RenderTemplate2024"] for 0.7.0 data models; a string for 0.6.x ones' }),
    name: z.string().optional(),
    url: z.string().optional().openapi({ description: 'The stored template (linked templates)' }),
    template: z.string().optional().openapi({ description: 'The template itself (inline RenderTemplate2024, WebRenderingTemplate2022)' }),
    digestMultibase: z.string().optional(),
    mediaType: z.string().optional(),
    mediaQuery: z.string().optional(),
  })
  .openapi('RenderMethod');

export const getRenderMethodRoute = createRoute({
  operationId: 'getRenderMethod',
  method: 'get',
  path: '/{id}/render-method',
  tags: ['Render templates'],
  summary: 'The renderMethod entry to put in a credential payload for this template',
  description:
    'Issuance never adds a render method: a client adds this entry to its payload’s `renderMethod` array. The shape follows the template’s data model: ' +
    '0.7.0 (`type: ["RenderTemplate2024"]`, the stored `url` and its `digestMultibase`, `mediaType`, `mediaQuery`) or 0.6.x (`type` as a string; ' +
    'WebRenderingTemplate2022 carries its template inline). An inline template’s content comes from its storage, checked against its digest.',
  security: guarded,
  request: { params: TemplateIdParam },
  responses: { 200: jsonResponse(RenderMethodSchema, 'The renderMethod entry'), ...pick(401, 403, 404, 500, 502) },
});

export const registerGetRenderMethod = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getRenderMethodRoute, async (c) => {
    const entry = await renderMethodOfTemplate(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    return c.json(entry, 200);
  });
