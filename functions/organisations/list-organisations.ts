import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listOrganisations } from '../../core/organisations/organisation-repository.ts';
import { searchQuery } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { OrganisationSchema, toOrganisationResponse } from './schemas.ts';

export const listOrganisationsRoute = createRoute({
  method: 'get',
  operationId: 'listOrganisations',
  path: '/',
  tags: ['Organisations'],
  summary: "List the tenant's organisations, newest first",
  description: 'Items carry `secondaryIdentifierIds` but not the identifier relations (see the single response).',
  security: guarded,
  request: { query: z.object({ search: searchQuery(), ...pageQuerySchema }) },
  responses: {
    200: jsonResponse(listEnvelopeSchema(OrganisationSchema), 'A page of organisations'),
    ...pick(400, 401, 403, 500),
  },
});

export const registerListOrganisations = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listOrganisationsRoute, async (c) => {
    const { db, settings } = c.get('services');
    const query = c.req.valid('query');
    const page = parsePage(query, settings);
    const search = query.search?.trim() || undefined;
    const { rows, total } = await listOrganisations(db, c.get('principal').tenantId, { search }, page);
    return c.json(listEnvelope(rows.map(toOrganisationResponse), total, page), 200);
  });
