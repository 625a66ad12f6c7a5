import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listRegistrars } from '../../core/registrars/registrar-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { RegistrarSchema, toRegistrarResponse } from '../platform/embedded/registrar.ts';

export const listRegistrarsRoute = createRoute({
  method: 'get',
  operationId: 'listRegistrars',
  path: '/',
  tags: ['Registrars'],
  summary: "List the tenant's registrars and the system defaults, newest first",
  security: guarded,
  request: { query: z.object(pageQuerySchema) },
  responses: {
    200: jsonResponse(listEnvelopeSchema(RegistrarSchema), 'A page of registrars'),
    ...pick(400, 401, 403, 500),
  },
});

export const registerListRegistrars = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listRegistrarsRoute, async (c) => {
    const { db, settings } = c.get('services');
    const page = parsePage(c.req.valid('query'), settings);
    const { rows, total } = await listRegistrars(db, c.get('principal').tenantId, page);
    return c.json(listEnvelope(rows.map(toRegistrarResponse), total, page), 200);
  });
