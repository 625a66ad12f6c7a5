import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import * as z from 'zod';
import { submitBatch } from '../../core/batches/submit-batch.ts';
import { parseIssuanceRequest } from '../../core/credentials/issuance-request.ts';
import { badRequest } from '../../core/errors.ts';
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from '../../core/idempotency/idempotency-key.ts';
import type { AppEnv } from '../platform/env.ts';
import { jsonBody, jsonResponse, pick } from '../platform/openapi-responses.ts';
import { guarded } from '../platform/openapi-security.ts';
import { heavyRequest } from '../platform/tenant-slots.ts';
import { API_BATCHES_PATH } from './paths.ts';
import { batchAcceptedExample, batchSubmissionExample } from './openapi-examples.ts';
import { BatchAcceptedSchema, BatchSubmissionBody, expiredResponse } from './schemas.ts';

export const submitBatchRoute = createRoute({
  method: 'post',
  operationId: 'submitBatch',
  path: '/',
  tags: ['Credential batches'],
  summary: 'Submit a batch of issuance requests for the worker',
  description:
    'Every item is validated as POST /credentials validates its body; then the batch, its item requests (encrypted) and the first ' +
    'worker job are written together. The worker issues the items one at a time. The Idempotency-Key header is required: the same ' +
    'key and body answer the same 202 without a second batch; another body is 422 IDEMPOTENCY_KEY_MISMATCH; the key of an expired ' +
    'batch is 410. More than MAX_BATCH_ITEMS items is 400 BATCH_TOO_LARGE; a body over MAX_BATCH_REQUEST_BODY_BYTES is 413. One heavy request ' +
    '(batch submission or bulk create) runs at a time per tenant; the next wait, and past eight waiting the answer is 429 TENANT_BUSY. An ' +
    'inbound x-correlation-id becomes the batch’s correlation id.',
  security: guarded,
  request: {
    headers: z.object({
      [IDEMPOTENCY_HEADER.toLowerCase()]: z.string().optional().openapi({ description: 'Required; printable ASCII, at most 255 characters', example: 'first-batch' }),
    }),
    body: jsonBody(BatchSubmissionBody, 'The items: each one an issuance request, optionally with a reference', batchSubmissionExample),
  },
  responses: {
    202: {
      ...jsonResponse(BatchAcceptedSchema, 'Accepted (or replayed); the status resource is in Location', batchAcceptedExample),
      headers: { Location: { schema: { type: 'string' }, description: 'The status resource' } },
    },
    410: expiredResponse,
    ...pick(400, 401, 403, 413, 422, 429, 500),
  },
});

export const registerSubmitBatch = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(submitBatchRoute, async (c) => {
    const services = c.get('services');
    const key = readIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
    if (key === undefined) throw badRequest(`${IDEMPOTENCY_HEADER}: is required`);
    c.req.valid('json');
    if (!services.jobs) throw new Error('This runtime was given no job queue (the Node web process and the credential-batches edge entry have one)');
    const { settings } = services;
    const tenantId = c.get('principal').tenantId;
    const jobs = services.jobs;
    const body = await c.req.json();
    const { batchId } = await heavyRequest(settings, tenantId, () =>
      submitBatch(
        { db: services.db, box: services.secretBox, jobs, settings: { ...settings.batches, maxItemBytes: settings.maxRequestBodyBytes } },
        {
          tenantId,
          idempotencyKey: key,
          correlationId: c.get('correlationId'),
          body,
          validateItem: (item, prefix) => void parseIssuanceRequest(item, settings.issuance, prefix),
        },
      ),
    );
    const status = `${API_BATCHES_PATH}/${batchId}`;
    c.header('Location', status);
    return c.json({ batchId, status }, 202);
  });
