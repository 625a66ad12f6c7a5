import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { badRequest } from '../../core/errors.ts';
import { loadRecordViews } from '../../core/library/record-queries.ts';
import type { AppEnv } from '../platform/env.ts';
import { idText } from '../platform/fields.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { splitReadable } from './readable.ts';
import { CredentialRecordSchema, FailureSchema } from './schemas.ts';

const BatchGetBody = z.object({ ids: z.array(idText()).min(1, 'must name at least one id') }).openapi('LibraryBatchGet');

export const batchGetLibraryRoute = createRoute({
  method: 'post',
  operationId: 'batchGetLibrary',
  path: '/batch-get',
  tags: ['Library'],
  summary: 'Read several records at once',
  description:
    'Answers in the order ids first appear; an id that is missing or not the tenant’s is a NOT_FOUND failure. ' +
    'At most API_MAX_BATCH_LIMIT ids, counted before duplicates are removed (400 BATCH_GET_LIMIT_EXCEEDED).',
  security: guarded,
  request: { body: jsonBody(BatchGetBody) },
  responses: {
    200: jsonResponse(z.object({ data: z.array(CredentialRecordSchema), failures: z.array(FailureSchema) }), 'The records and the failures'),
    ...pick(400, 401, 403, 413, 500),
  },
});

export const registerBatchGetLibrary = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(batchGetLibraryRoute, async (c) => {
    const { db, settings } = c.get('services');
    const { ids } = c.req.valid('json');
    const max = settings.library.maxBatchLimit;
    if (ids.length > max) throw badRequest(`ids: must name at most ${max} ids`, 'BATCH_GET_LIMIT_EXCEEDED');
    const unique = [...new Set(ids)];
    const views = await loadRecordViews(db, c.get('principal').tenantId, unique);
    c.header('cache-control', 'no-store');
    return c.json(splitReadable(unique, views, (id) => ({ id, code: 'NOT_FOUND', message: 'No such credential record.' })), 200);
  });
