import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { listCriteria, listProfiles, listSchemes } from '../../core/conformity/catalogue-queries.ts';
import { badRequest } from '../../core/errors.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';

const tags = ['Conformity catalogue'];
const Scheme = z.object({ id: z.string(), name: z.string(), specVersion: z.string().nullable(), owner: z.object({ canonicalId: z.string().optional(), name: z.string().optional() }).optional() }).openapi('ConformitySchemeEntry');
const Profile = z.object({ id: z.string(), name: z.string(), version: z.string().nullable(), status: z.string().nullable(), validFrom: z.string().optional() }).openapi('ConformityProfileEntry');
const Criterion = z
  .object({
    id: z.string(),
    name: z.string(),
    version: z.string().nullable(),
    status: z.string().nullable(),
    topics: z.array(z.object({ canonicalId: z.string(), name: z.string().optional(), definition: z.string().optional() })),
    tags: z.array(z.string()),
  })
  .openapi('ConformityCriterionEntry');

const required = (value: string | undefined, name: string) => {
  if (value === undefined || value.trim() === '') throw badRequest(`${name}: is required (a canonical URI)`);
  return value;
};

const schemesRoute = createRoute({
  method: 'get', path: '/schemes', tags, security: guarded,
  summary: 'Conformity schemes visible to the tenant (system entries win for a shared URI), by name',
  request: { query: z.object(pageQuerySchema) },
  responses: { 200: jsonResponse(listEnvelopeSchema(Scheme), 'Schemes'), ...pick(400, 401, 403, 500) },
});
const profilesRoute = createRoute({
  method: 'get', path: '/profiles', tags, security: guarded,
  summary: 'Profiles of a scheme (an unregistered scheme gives an empty list)',
  request: { query: z.object({ schemeId: z.string().optional().openapi({ description: 'Canonical scheme URI (required)' }), ...pageQuerySchema }) },
  responses: { 200: jsonResponse(listEnvelopeSchema(Profile), 'Profiles'), ...pick(400, 401, 403, 500) },
});
const criteriaRoute = createRoute({
  method: 'get', path: '/criteria', tags, security: guarded,
  summary: 'Criteria of a profile, each with its topics (an unregistered profile gives an empty list)',
  request: { query: z.object({ profileId: z.string().optional().openapi({ description: 'Canonical profile URI (required)' }), ...pageQuerySchema }) },
  responses: { 200: jsonResponse(listEnvelopeSchema(Criterion), 'Criteria'), ...pick(400, 401, 403, 500) },
});

export const registerCatalogueRoutes = (app: OpenAPIHono<AppEnv>) => {
  app.openapi(schemesRoute, async (c) => {
    const page = parsePage(c.req.valid('query'), c.get('services').settings);
    const { rows, total } = await listSchemes(c.get('services').db, c.get('principal').tenantId, page);
    const data = rows.map((r) => ({ id: r.id, name: r.name, specVersion: r.spec_version, ...(r.owner ? { owner: r.owner } : {}) }));
    return c.json(listEnvelope(data, total, page), 200);
  });
  app.openapi(profilesRoute, async (c) => {
    const query = c.req.valid('query');
    const schemeId = required(query.schemeId, 'schemeId');
    const page = parsePage(query, c.get('services').settings);
    const { rows, total } = await listProfiles(c.get('services').db, c.get('principal').tenantId, schemeId, page);
    const data = rows.map((r) => ({ id: r.id, name: r.name, version: r.version, status: r.status, ...(r.valid_from ? { validFrom: r.valid_from } : {}) }));
    return c.json(listEnvelope(data, total, page), 200);
  });
  app.openapi(criteriaRoute, async (c) => {
    const query = c.req.valid('query');
    const profileId = required(query.profileId, 'profileId');
    const page = parsePage(query, c.get('services').settings);
    const { rows, total } = await listCriteria(c.get('services').db, c.get('principal').tenantId, profileId, page);
    const data = rows.map((r) => ({ id: r.id, name: r.name, version: r.version, status: r.status, topics: r.topics as z.infer<typeof Criterion>['topics'], tags: r.tags }));
    return c.json(listEnvelope(data, total, page), 200);
  });
};
