import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/errors.ts';
import { findOrganisation } from '../../core/organisations/organisation-repository.ts';
import { RecordIdParam } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { OrganisationDetailSchema, toOrganisationDetailResponse } from './schemas.ts';

export const getOrganisationRoute = createRoute({
  method: 'get',
  operationId: 'getOrganisation',
  path: '/{id}',
  tags: ['Organisations'],
  summary: 'One of the tenant’s organisations with its identifiers (scheme and registrar included)',
  security: guarded,
  request: { params: RecordIdParam },
  responses: {
    200: jsonResponse(OrganisationDetailSchema, 'The organisation'),
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetOrganisation = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getOrganisationRoute, async (c) => {
    const row = await findOrganisation(c.get('services').db, c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Organisation');
    return c.json(toOrganisationDetailResponse(row), 200);
  });
