import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/errors.ts';
import { findFacility } from '../../core/facilities/facility-repository.ts';
import { RecordIdParam } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { FacilityDetailSchema, toFacilityDetailResponse } from './schemas.ts';

export const getFacilityRoute = createRoute({
  method: 'get',
  operationId: 'getFacility',
  path: '/{id}',
  tags: ['Facilities'],
  summary: 'One of the tenant’s facilities with its identifiers (scheme and registrar included) and operating organisation',
  security: guarded,
  request: { params: RecordIdParam },
  responses: {
    200: jsonResponse(FacilityDetailSchema, 'The facility'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetFacility = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getFacilityRoute, async (c) => {
    const row = await findFacility(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Facility');
    return c.json(toFacilityDetailResponse(row), 200);
  });
