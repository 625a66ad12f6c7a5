import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { readInChunks } from '../../core/master-data/master-record.ts';
import { createOrganisations, findOrganisations } from '../../core/organisations/organisation-repository.ts';
import { bulkBody } from '../platform/master-data-fields.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { heavyRequest } from '../platform/tenant-slots.ts';
import { withoutNulls } from '../platform/without-nulls.ts';
import { CreateOrganisationItem, OrganisationDetailSchema, toOrganisationDetailResponse } from './schemas.ts';

export const createOrganisationsRoute = createRoute({
  method: 'post',
  operationId: 'createOrganisations',
  path: '/',
  tags: ['Organisations'],
  summary: 'Create organisations in bulk (all or nothing)',
  description:
    'A non-empty JSON array. Every item is checked before anything is written: one bad item (400, naming it ' +
    'as `[i].field`), a referenced identifier that is missing or another tenant’s (404), or a primary identifier ' +
    'already primary on another organisation (409) rejects the whole request. Unrecognised keys are ignored.',
  security: guarded,
  request: { body: jsonBody(bulkBody(CreateOrganisationItem)) },
  responses: {
    201: jsonResponse(z.array(OrganisationDetailSchema), 'The created organisations, in request order, with identifiers'),
    ...pick(400, 401, 403, 404, 409, 413, 429, 500),
  },
});

export const registerCreateOrganisations = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(createOrganisationsRoute, async (c) => {
    const { db, settings } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const ids = await heavyRequest(settings, tenantId, () => createOrganisations(db, tenantId, c.req.valid('json').map(withoutNulls)));
    const rows = await readInChunks(ids, (chunk) => findOrganisations(db, tenantId, chunk));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return c.json(ids.map((id) => toOrganisationDetailResponse(byId.get(id)!)), 201);
  });
