import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listSchemes } from '../../core/conformity/catalogue-queries.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { ConformitySchemeEntry } from './schemas.ts';

export const listConformitySchemesRoute = createRoute({
  method: 'get',
  operationId: 'listConformitySchemes',
  path: '/schemes',
  tags: ['Conformity catalogue'],
  security: guarded,
  summary: 'Conformity schemes visible to the tenant (system entries win for a shared URI), by name',
  request: { query: z.object(pageQuerySchema) },
  responses: { 200: jsonResponse(listEnvelopeSchema(ConformitySchemeEntry), 'Schemes'), ...pick(400, 401, 403, 500) },
});

export const registerListConformitySchemes = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listConformitySchemesRoute, async (c) => {
    const page = parsePage(c.req.valid('query'), c.get('services').settings);
    const { rows, total } = await listSchemes(c.get('services').db, c.get('principal').tenantId, page);
    const data = rows.map((r) => ({ id: r.id, name: r.name, specVersion: r.spec_version, ...(r.owner ? { owner: r.owner } : {}) }));
    return c.json(listEnvelope(data, total, page), 200);
  });
