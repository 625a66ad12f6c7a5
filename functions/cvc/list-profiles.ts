import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listProfiles } from '../../core/conformity/catalogue-queries.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { ConformityProfileEntry, requiredUri } from './schemas.ts';

export const listConformityProfilesRoute = createRoute({
  method: 'get',
  operationId: 'listProfiles',
  path: '/profiles',
  tags: ['Conformity catalogue'],
  security: guarded,
  summary: 'Profiles of a scheme (an unregistered scheme gives an empty list)',
  request: { query: z.object({ schemeId: z.string().optional().openapi({ description: 'Canonical scheme URI (required)' }), ...pageQuerySchema }) },
  responses: { 200: jsonResponse(listEnvelopeSchema(ConformityProfileEntry), 'Profiles'), ...pick(400, 401, 403, 500) },
});

export const registerListConformityProfiles = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listConformityProfilesRoute, async (c) => {
    const query = c.req.valid('query');
    const schemeId = requiredUri(query.schemeId, 'schemeId');
    const page = parsePage(query, c.get('services').settings);
    const { rows, total } = await listProfiles(c.get('services').db, c.get('principal').tenantId, schemeId, page);
    const data = rows.map((r) => ({ id: r.id, name: r.name, version: r.version, status: r.status, ...(r.valid_from ? { validFrom: r.valid_from } : {}) }));
    return c.json(listEnvelope(data, total, page), 200);
  });
