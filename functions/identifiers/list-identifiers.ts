import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listIdentifiers } from '../../core/identifiers/identifier-repository.ts';
import { idText } from '../platform/fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { IdentifierSchema, toIdentifierResponse } from '../platform/embedded/identifier.ts';

export const listIdentifiersRoute = createRoute({
  method: 'get',
  operationId: 'listIdentifiers',
  path: '/',
  tags: ['Identifiers'],
  summary: "List the tenant's identifiers, newest first",
  security: guarded,
  request: {
    query: z.object({
      schemeId: idText().optional().openapi({ description: 'Only identifiers of this scheme' }),
      ...pageQuerySchema,
    }),
  },
  responses: {
    200: jsonResponse(listEnvelopeSchema(IdentifierSchema), 'A page of identifiers'),
    ...pick(400, 401, 403, 500),
  },
});

export const registerListIdentifiers = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listIdentifiersRoute, async (c) => {
    const { db, settings } = c.get('services');
    const query = c.req.valid('query');
    const page = parsePage(query, settings);
    const { rows, total } = await listIdentifiers(db, c.get('principal').tenantId, { schemeId: query.schemeId }, page);
    return c.json(listEnvelope(rows.map(toIdentifierResponse), total, page), 200);
  });
