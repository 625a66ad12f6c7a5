import '@hono/zod-openapi';
import * as z from 'zod';
import { BATCH_ITEM_STATES, BATCH_STATES } from '../../db/schema/credential-batches.ts';
import { ErrorResponseSchema } from '../platform/openapi-responses.ts';

const instant = () => z.string().openapi({ format: 'date-time' });

export const BatchIdParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'ckv9x2l0k0000qzrm8d1b2c3d', description: 'Any other value is the 404 of a missing batch' }),
});

export const BatchSubmissionBody = z
  .object({
    items: z
      .array(z.unknown(), { error: (i) => (i.input === undefined ? 'is required' : 'must be an array') })
      .min(1, 'must contain at least one item')
      .openapi({
        description:
          'Each item is the body of POST /api/v1/credentials (validated the same way, errors at items[i].<field>) plus an optional ' +
          '`reference` (1–200 characters, no control characters, unique in the batch, stored in plaintext). At most MAX_BATCH_ITEMS items.',
      }),
  })
  .openapi('BatchSubmission');

export const BatchAcceptedSchema = z
  .object({
    batchId: z.string(),
    status: z.string().openapi({ example: '/api/v1/credentials/batches/ckv9x2l0k0000qzrm8d1b2c3d', description: 'The status resource (also in Location)' }),
  })
  .openapi('BatchAccepted');

export const BatchCountsSchema = z
  .object({
    total: z.number().int(),
    queued: z.number().int(),
    processing: z.number().int(),
    issued: z.number().int(),
    failed: z.number().int(),
    unknown: z.number().int(),
    cancelled: z.number().int(),
  })
  .openapi('BatchCounts', { description: 'Per-state item counts; they always sum to total' });

export const BatchItemSchema = z
  .object({
    index: z.number().int().openapi({ description: 'Zero-based position in the submission' }),
    reference: z.string().optional(),
    state: z.enum(BATCH_ITEM_STATES),
    credentialId: z.string().optional().openapi({ description: 'When known (ISSUED, or OUTCOME_UNKNOWN with a record)' }),
    warnings: z.unknown().optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    resolutionReason: z.string().nullable().optional(),
    resolvedAt: instant().optional(),
  })
  .openapi('BatchItem');

const header = {
  id: z.string(),
  state: z.enum(BATCH_STATES),
  counts: BatchCountsSchema,
  correlationId: z.string().openapi({ description: 'The x-correlation-id of the submission: the batch’s log key' }),
  cancelRequestedAt: instant().nullable(),
  createdAt: instant(),
  lastProgressAt: instant(),
  settledAt: instant().nullable(),
  resolvedAt: instant().nullable(),
  expiresAt: instant().nullable(),
  version: z.number().int().openapi({ description: 'Moves with every state change of the batch or an item' }),
  items: z.array(BatchItemSchema),
};

export const BatchSchema = z.object(header).openapi('CredentialBatch');

export const CancelledBatchSchema = z
  .object({ ...header, message: z.string() })
  .openapi('CancelledCredentialBatch');

export const BatchTombstoneSchema = ErrorResponseSchema.extend({
  ...header,
  idempotencyKey: z.string(),
  bodyDigest: z.string(),
}).openapi('CredentialBatchTombstone');

export const expiredResponse = {
  description: 'BATCH_EXPIRED: the batch passed its retention; the tombstone keeps its counts, submission key and body digest. Its credentials were not deleted.',
  content: { 'application/json': { schema: BatchTombstoneSchema } },
};
