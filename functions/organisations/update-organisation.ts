import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findOrganisation, updateOrganisation } from '../../core/organisations/organisation-repository.ts';
import { RecordIdParam } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { OrganisationDetailSchema, toOrganisationDetailResponse, UpdateOrganisationBody } from './schemas.ts';

export const updateOrganisationRoute = createRoute({
  method: 'patch',
  operationId: 'updateOrganisation',
  path: '/{id}',
  tags: ['Organisations'],
  summary: 'Change one of the tenant’s organisations',
  description:
    'Only stated fields change. `description` and `primaryIdentifierId` accept null to clear; ' +
    '`secondaryIdentifierIds` replaces the set (an empty array clears it). The primary identifier may not also ' +
    'be secondary (400) nor primary on another organisation (409).',
  security: guarded,
  request: { params: RecordIdParam, body: jsonBody(UpdateOrganisationBody) },
  responses: {
    200: jsonResponse(OrganisationDetailSchema, 'The updated organisation'),
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerUpdateOrganisation = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(updateOrganisationRoute, async (c) => {
    const { db } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const { id } = c.req.valid('param');
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateOrganisationBody.shape));
    await updateOrganisation(db, tenantId, id, patch);
    return c.json(toOrganisationDetailResponse((await findOrganisation(db, tenantId, id))!), 200);
  });
