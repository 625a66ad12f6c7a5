import type * as z from 'zod';
import { issueRequestExample } from '../credentials/openapi-examples.ts';
import type { BatchAcceptedSchema, BatchSubmissionBody, CancelledBatchSchema } from './schemas.ts';

/** The OpenAPI document's examples of batches (test/openapi/examples.test.ts checks them against the schemas). */

export const batchSubmissionExample: z.input<typeof BatchSubmissionBody> = {
  items: [
    { ...issueRequestExample, reference: 'lot-41' },
    { ...issueRequestExample, reference: 'lot-42' },
  ],
};

export const batchAcceptedExample: z.input<typeof BatchAcceptedSchema> = {
  batchId: 'ckv9x2l0k0000qzrm8d1b2c3d',
  status: '/api/v1/credentials/batches/ckv9x2l0k0000qzrm8d1b2c3d',
};

export const cancelledBatchExample: z.input<typeof CancelledBatchSchema> = {
  id: 'ckv9x2l0k0000qzrm8d1b2c3d',
  state: 'RUNNING',
  counts: { total: 2, queued: 0, processing: 1, issued: 0, failed: 0, cancelled: 1, unknown: 0 },
  correlationId: '655d8ab1-36f1-47a9-83ee-c52bd9d6b94c',
  cancelRequestedAt: '2026-11-28T11:51:23.764Z',
  createdAt: '2026-11-28T11:51:23.121Z',
  lastProgressAt: '2026-11-28T11:51:23.781Z',
  settledAt: null,
  resolvedAt: null,
  expiresAt: null,
  version: 3,
  items: [
    { index: 0, reference: 'lot-41', state: 'PROCESSING' },
    { index: 1, reference: 'lot-42', state: 'CANCELLED' },
  ],
  message: 'Queued items are cancelled. An item already processing may still be issued. Cancellation does not revoke any credentials.',
};
