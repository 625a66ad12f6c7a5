import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findFacility, updateFacility } from '../../core/facilities/facility-repository.ts';
import { RecordIdParam } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { FacilityDetailSchema, toFacilityDetailResponse, UpdateFacilityBody } from './schemas.ts';

export const updateFacilityRoute = createRoute({
  method: 'patch',
  operationId: 'updateFacility',
  path: '/{id}',
  tags: ['Facilities'],
  summary: 'Change one of the tenant’s facilities',
  description:
    'Only stated fields change. `description`, `operatingOrganisationId` and `primaryIdentifierId` accept null ' +
    'to clear; `location: null` is a 400; ' +
    '`secondaryIdentifierIds` replaces the set (an empty array clears it). The primary identifier may not also ' +
    'be secondary (400) nor primary on another facility (409).',
  security: guarded,
  request: { params: RecordIdParam, body: jsonBody(UpdateFacilityBody) },
  responses: {
    200: jsonResponse(FacilityDetailSchema, 'The updated facility'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerUpdateFacility = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateFacilityRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateFacilityBody.shape));
    await updateFacility(db, tenantId, id, patch);
    return c.json(toFacilityDetailResponse((await findFacility(db, tenantId, id))!), 200);
  });
