import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { readInChunks } from '../../core/master-data/master-record.ts';
import { createFacilities, findFacilities } from '../../core/facilities/facility-repository.ts';
import { bulkBody } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { heavyRequest } from '../platform/tenant-slots.ts';
import { CreateFacilityItem, FacilityDetailSchema, toFacilityDetailResponse } from './schemas.ts';

export const createFacilitiesRoute = createRoute({
  method: 'post',
  operationId: 'createFacilities',
  path: '/',
  tags: ['Facilities'],
  summary: 'Create facilities in bulk (all or nothing)',
  description:
    'A non-empty JSON array. Every item is checked before anything is written: one bad item (400, naming it ' +
    'as `[i].field`; explicit null on any optional field, location included, is a 400), a referenced identifier ' +
    'or operating organisation that is missing or another tenant’s (404), or a primary identifier already ' +
    'primary on another facility (409) rejects the whole request. Unrecognised keys are ignored.',
  security: guarded,
  request: { body: jsonBody(bulkBody(CreateFacilityItem)) },
  responses: {
    201: jsonResponse(z.array(FacilityDetailSchema), 'The created facilities, in request order, with identifiers'),
    ...pick(400, 401, 403, 404, 409, 413, 429, 500),
  },
});

export const registerCreateFacilities = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createFacilitiesRoute, async (c) => {
    const { db, settings } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const ids = await heavyRequest(settings, tenantId, () => createFacilities(db, tenantId, c.req.valid('json')));
    const rows = await readInChunks(ids, (chunk) => findFacilities(db, tenantId, chunk));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return c.json(ids.map((id) => toFacilityDetailResponse(byId.get(id)!)), 201);
  });
