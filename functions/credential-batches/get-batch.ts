import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { inOneSnapshot, projectBatch } from '../../core/batches/batch-projection.ts';
import { findTenantBatch } from '../../core/batches/batch-repository.ts';
import { batchExpired, batchNotFound } from '../../core/batches/cancel-batch.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { BatchIdParam, BatchSchema, expiredResponse } from './schemas.ts';

export const getBatchRoute = createRoute({
  method: 'get',
  operationId: 'getBatch',
  path: '/{id}',
  tags: ['Credential batches'],
  summary: 'The status of a batch: state, counts and every item’s outcome in index order',
  description: 'Never cached (Cache-Control: no-store). A batch whose stored counts disagree with its items answers 500 (logged).',
  security: guarded,
  request: { params: BatchIdParam },
  responses: {
    200: jsonResponse(BatchSchema, 'The batch'),
    410: expiredResponse,
    ...pick(401, 403, 404, 500),
  },
});

export const registerGetBatch = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(getBatchRoute, async (c) => {
    const { db } = c.get('services');
    c.header('Cache-Control', 'no-store');
    const { tenantId } = c.get('principal');
    const view = await inOneSnapshot(db, async (tx) => {
      const batch = await findTenantBatch(tx, tenantId, c.req.valid('param').id);
      if (!batch) throw batchNotFound();
      if (batch.state === 'EXPIRED') throw await batchExpired(tx, batch);
      return projectBatch(tx, batch);
    });
    return c.json(view, 200);
  });
