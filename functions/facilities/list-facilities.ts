import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { idText } from '../platform/fields.ts';
import { listFacilities } from '../../core/facilities/facility-repository.ts';
import { searchQuery } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { FacilitySchema, toFacilityResponse } from './schemas.ts';

export const listFacilitiesRoute = createRoute({
  method: 'get',
  operationId: 'listFacilities',
  path: '/',
  tags: ['Facilities'],
  summary: "List the tenant's facilities, newest first",
  description: 'Items carry `secondaryIdentifierIds` but not the identifier relations (see the single response).',
  security: guarded,
  request: {
    query: z.object({
      search: searchQuery(),
      organisationId: idText().optional().openapi({ description: 'Only facilities operated by this organisation' }),
      ...pageQuerySchema,
    }),
  },
  responses: {
    200: jsonResponse(listEnvelopeSchema(FacilitySchema), 'A page of facilities'),
    ...pick(400, 401, 403, 500),
  },
});

export const registerListFacilities = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listFacilitiesRoute, async (c) => {
    const { db, settings } = c.get('services');
    const query = c.req.valid('query');
    const page = parsePage(query, settings);
    const search = query.search?.trim() || undefined;
    const { rows, total } = await listFacilities(db, c.get('principal').tenantId, { search, organisationId: query.organisationId }, page);
    return c.json(listEnvelope(rows.map(toFacilityResponse), total, page), 200);
  });
