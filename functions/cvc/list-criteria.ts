import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listCriteria } from '../../core/conformity/catalogue-queries.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { ConformityCriterionEntry, requiredUri } from './schemas.ts';

export const listConformityCriteriaRoute = createRoute({
  method: 'get',
  operationId: 'listCriteria',
  path: '/criteria',
  tags: ['Conformity catalogue'],
  security: guarded,
  summary: 'Criteria of a profile, each with its topics (an unregistered profile gives an empty list)',
  request: { query: z.object({ profileId: z.string().optional().openapi({ description: 'Canonical profile URI (required)' }), ...pageQuerySchema }) },
  responses: { 200: jsonResponse(listEnvelopeSchema(ConformityCriterionEntry), 'Criteria'), ...pick(400, 401, 403, 500) },
});

export const registerListConformityCriteria = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listConformityCriteriaRoute, async (c) => {
    const query = c.req.valid('query');
    const profileId = requiredUri(query.profileId, 'profileId');
    const page = parsePage(query, c.get('services').settings);
    const { rows, total } = await listCriteria(c.get('services').db, c.get('principal').tenantId, profileId, page);
    const data = rows.map((r) => ({
      id: r.id,
      name: r.name,
      version: r.version,
      status: r.status,
      topics: r.topics as z.infer<typeof ConformityCriterionEntry>['topics'],
      tags: r.tags,
    }));
    return c.json(listEnvelope(data, total, page), 200);
  });
