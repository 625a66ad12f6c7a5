import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { cancelBatch } from '../../core/batches/cancel-batch.ts';
import { ApiError } from '../../core/errors.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { BatchIdParam, CancelledBatchSchema, expiredResponse } from './schemas.ts';
import { cancelledBatchExample } from './openapi-examples.ts';

export const cancelBatchRoute = createRoute({
  method: 'post',
  operationId: 'cancelBatch',
  path: '/{id}/cancel',
  tags: ['Credential batches'],
  summary: 'Cancel a queued or running batch (send no body)',
  description:
    'Queued items (deferred retries included) become CANCELLED; an item already processing may still be issued; no credential is ' +
    'revoked. A repeat while QUEUED or RUNNING answers 202 and writes nothing. COMPLETED, NEEDS_ATTENTION or CANCELLED: 409 ' +
    'BATCH_NOT_CANCELLABLE. Any request body: 400.',
  security: guarded,
  request: { params: BatchIdParam },
  responses: {
    202: jsonResponse(CancelledBatchSchema, 'Cancellation recorded (or already recorded): the batch and a message', cancelledBatchExample),
    410: expiredResponse,
    ...pick(400, 401, 403, 404, 409, 413, 500),
  },
});

export const registerCancelBatch = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(cancelBatchRoute, async (c) => {
    if ((await c.req.text()).length > 0) throw new ApiError(400, 'Send this request without a body.');
    const { db } = c.get('services');
    return c.json(await cancelBatch(db, c.get('principal').tenantId, c.req.valid('param').id), 202);
  });
