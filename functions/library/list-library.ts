import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { listRecordIds, loadRecordViews } from '../../core/library/record-queries.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { listEnvelopeSchema, parsePage } from '../platform/pagination.ts';
import { LibraryListQuery, parseLibraryQuery } from './list-query.ts';
import { CredentialRecordSchema, FailureSchema } from './schemas.ts';
import { splitReadable } from './readable.ts';

export const listLibraryRoute = createRoute({
  method: 'get',
  operationId: 'listLibrary',
  path: '/',
  tags: ['Library'],
  summary: "List the tenant's credentials, issued here and registered from elsewhere",
  description:
    'Keyless rows (no storage location, digest or key), newest issue first unless `sort` says otherwise, ties by id. ' +
    'A record that cannot be read is listed under `failures` (RECORD_UNREADABLE). Never cached (no-store).',
  security: guarded,
  request: { query: LibraryListQuery },
  responses: {
    200: jsonResponse(listEnvelopeSchema(CredentialRecordSchema).extend({ failures: z.array(FailureSchema) }), 'A page of records'),
    ...pick(400, 401, 403, 500),
  },
});

export const registerListLibrary = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(listLibraryRoute, async (c) => {
    const { db, settings } = c.get('services');
    const tenantId = c.get('principal').tenantId;
    const query = c.req.valid('query');
    const { filters, sort } = parseLibraryQuery(query);
    const page = parsePage(query, settings, { overMaximumCode: 'PAGE_LIMIT_EXCEEDED' });
    const { ids, total } = await listRecordIds(db, tenantId, filters, sort, page);
    const { data, failures } = splitReadable(ids, await loadRecordViews(db, tenantId, ids));
    c.header('cache-control', 'no-store');
    const shown = data.length + failures.length;
    return c.json({ data, failures, pagination: { total, limit: page.limit, offset: page.offset, hasMore: page.offset + shown < total } }, 200);
  });
