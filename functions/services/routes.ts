import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../core/errors.ts';
import {
  createServiceInstance,
  deleteServiceInstance,
  findServiceInstance,
  listServiceInstances,
  parseForce,
  updateServiceInstance,
} from '../../core/service-instances/service-instance-repository.ts';
import { ADAPTER_TYPES, SERVICE_TYPES } from '../../db/schema/index.ts';
import type { AppEnv } from '../platform/env.ts';
import { enumFilter } from '../platform/filters.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { requireRecognisedField } from '../platform/patch.ts';
import { instanceDeps } from './deps.ts';
import {
  CreateServiceInstanceBody,
  ServiceIdParam,
  ServiceInstanceSchema,
  toServiceInstanceResponse,
  UpdateServiceInstanceBody,
} from './schemas.ts';

const tags = ['Service instances'];

export const createServiceRoute = createRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Connect a VC, storage or IDR service',
  description:
    'The config is validated against the adapter’s schema (400 naming `config.<field>`), its URLs must be public ' +
    'unless FETCH_ALLOW_PRIVATE_URLS is exactly true, and it is encrypted at rest; secrets come back as ***. ' +
    'isPrimary true demotes the tenant’s previous primary of that type.',
  security: guarded,
  request: { body: jsonBody(CreateServiceInstanceBody) },
  responses: { 201: jsonResponse(ServiceInstanceSchema, 'The new instance'), ...pick(400, 401, 403, 409, 413, 500) },
});

export const listServicesRoute = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: "The tenant's instances and the system defaults, newest first",
  security: guarded,
  request: {
    query: z.object({ serviceType: enumFilter(SERVICE_TYPES), adapterType: enumFilter(ADAPTER_TYPES), ...pageQuerySchema }),
  },
  responses: { 200: jsonResponse(listEnvelopeSchema(ServiceInstanceSchema), 'A page of instances'), ...pick(400, 401, 403, 500) },
});

export const getServiceRoute = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One own or system-default instance',
  security: guarded,
  request: { params: ServiceIdParam },
  responses: { 200: jsonResponse(ServiceInstanceSchema, 'The instance'), ...pick(401, 403, 404, 500) },
});

export const updateServiceRoute = createRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Change one of the tenant’s instances',
  description:
    'System defaults are read-only (403). config is shallow-merged over the stored one, then validated and ' +
    'encrypted; a sensitive field sent as *** keeps its stored value. A changed effective config while ' +
    'credential status operations are pending is a 409 SERVICE_INSTANCE_STATUS_PENDING; name, description and ' +
    'isPrimary changes are always allowed.',
  security: guarded,
  request: { params: ServiceIdParam, body: jsonBody(UpdateServiceInstanceBody) },
  responses: { 200: jsonResponse(ServiceInstanceSchema, 'The updated instance'), ...pick(400, 401, 403, 404, 409, 413, 500) },
});

export const deleteServiceRoute = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Remove one of the tenant’s instances',
  description:
    'A system default is a 403 (checked first). While the caller’s DIDs, registrars or schemes reference the ' +
    'instance the answer is 409 SERVICE_INSTANCE_IN_USE with their counts, unless force=true, which clears those ' +
    'references. Pending credential status operations block even with force. Render templates’ storage ' +
    'references are not counted.',
  security: guarded,
  request: {
    params: ServiceIdParam,
    query: z.object({ force: z.string().optional().openapi({ description: 'Exactly true or false (default false)' }) }),
  },
  responses: { 204: { description: 'Deleted' }, ...pick(400, 401, 403, 404, 409, 500) },
});

export const registerServiceRoutes = (app: OpenAPIHono<AppEnv>) => {
  app.openapi(createServiceRoute, async (c) => {
    const row = await createServiceInstance(instanceDeps(c), c.get('principal').tenantId, c.req.valid('json'));
    return c.json(toServiceInstanceResponse(row), 201);
  });
  app.openapi(listServicesRoute, async (c) => {
    const { limit, offset, ...filter } = c.req.valid('query');
    const page = parsePage({ limit, offset }, c.get('services').settings);
    const { rows, total } = await listServiceInstances(instanceDeps(c), c.get('principal').tenantId, filter, page);
    return c.json(listEnvelope(rows.map((row) => toServiceInstanceResponse(row, c.get('services').settings.showSystemServiceBaseUrl)), total, page), 200);
  });
  app.openapi(getServiceRoute, async (c) => {
    const row = await findServiceInstance(instanceDeps(c), c.get('principal').tenantId, c.req.valid('param').id);
    if (!row) throw notFound('Service instance');
    return c.json(toServiceInstanceResponse(row, c.get('services').settings.showSystemServiceBaseUrl), 200);
  });
  app.openapi(updateServiceRoute, async (c) => {
    const patch = requireRecognisedField(c.req.valid('json'), Object.keys(UpdateServiceInstanceBody.shape));
    const row = await updateServiceInstance(instanceDeps(c), c.get('principal').tenantId, c.req.valid('param').id, patch);
    return c.json(toServiceInstanceResponse(row), 200);
  });
  app.openapi(deleteServiceRoute, async (c) => {
    const force = parseForce(c.req.valid('query').force);
    await deleteServiceInstance(instanceDeps(c), c.get('principal').tenantId, c.req.valid('param').id, force);
    return c.body(null, 204);
  });
};
