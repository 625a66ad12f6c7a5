import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listLinks } from '../../core/identifier-links/link-repository.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelope, listEnvelopeSchema, pageQuerySchema, parsePage } from '../platform/pagination.ts';
import { requestDeps } from '../platform/request-deps.ts';
import { IdentifierParam, LinkRecordSchema, linkTags, toLinkRecordResponse } from './schemas.ts';

export const listLinksRoute = createRoute({
  method: 'get',
  operationId: 'listLinks',
  path: '/{id}/links',
  tags: linkTags,
  summary: 'Link registration records of one of the tenant’s identifiers, newest first',
  security: guarded,
  request: { params: IdentifierParam, query: z.object(pageQuerySchema) },
  responses: { 200: jsonResponse(listEnvelopeSchema(LinkRecordSchema), 'A page of records'), ...pick(400, 401, 403, 404, 500) },
});

export const registerListLinks = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listLinksRoute, async (c) => {
    const page = parsePage(c.req.valid('query'), c.get('services').settings);
    const { rows, total } = await listLinks(requestDeps(c), c.get('principal').tenantId, c.req.valid('param').id, page);
    return c.json(listEnvelope(rows.map(toLinkRecordResponse), total, page), 200);
  });
