import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listSchemes } from '../../core/schemes/scheme-repository.ts';
import { idText } from '../platform/fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { SchemeSchema, toSchemeResponse } from '../platform/embedded/scheme.ts';

export const listSchemesRoute = createRoute({
  method: 'get',
  operationId: 'listSchemes',
  path: '/',
  tags: ['Identifier schemes'],
  summary: "List the tenant's schemes and the system defaults, newest first",
  description: 'Items carry their qualifiers but not the registrar object.',
  security: guarded,
  request: {
    query: z.object({
      registrarId: idText().optional().openapi({ description: 'Only schemes of this registrar' }),
      ...pageQuerySchema,
    }),
  },
  responses: {
    200: jsonResponse(listEnvelopeSchema(SchemeSchema), 'A page of schemes'),
    ...pick(400, 401, 403, 500),
  },
});

export const registerListSchemes = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listSchemesRoute, async (c) => {
    const { db, settings } = c.get('services');
    const query = c.req.valid('query');
    const page = parsePage(query, settings);
    const { rows, total } = await listSchemes(db, c.get('principal').tenantId, { registrarId: query.registrarId }, page);
    return c.json(listEnvelope(rows.map(toSchemeResponse), total, page), 200);
  });
