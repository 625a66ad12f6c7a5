import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, instant, timestamps } from './columns.ts';
import { tenants } from './tenants.ts';

export const BATCH_STATES = ['QUEUED', 'RUNNING', 'COMPLETED', 'NEEDS_ATTENTION', 'CANCELLED', 'EXPIRED'] as const;
export const BATCH_ITEM_STATES = ['QUEUED', 'PROCESSING', 'ISSUED', 'FAILED', 'CANCELLED', 'OUTCOME_UNKNOWN'] as const;
export type BatchState = (typeof BATCH_STATES)[number];
export type BatchItemState = (typeof BATCH_ITEM_STATES)[number];

export const batchStateEnum = pgEnum('batch_state', BATCH_STATES);
export const batchItemStateEnum = pgEnum('batch_item_state', BATCH_ITEM_STATES);

const counter = (name: string) => integer(name).notNull().default(0);

/**
 * A batch submission: per-state counters kept beside the items (checked against them on every read,
 * never repaired silently), the submission key and body digest (idempotency and the tombstone), and
 * `version`, bumped by every state change of the batch or an item: the fence operator resolution uses.
 * `claimToken`/`claimExpiresAt` hold the batch for the one job working on it, so items run one at a time.
 */
export const credentialBatches = pgTable(
  'credential_batches',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    correlationId: text('correlation_id').notNull(),
    state: batchStateEnum('state').notNull().default('QUEUED'),
    itemCount: integer('item_count').notNull(),
    queuedCount: counter('queued_count'),
    processingCount: counter('processing_count'),
    issuedCount: counter('issued_count'),
    failedCount: counter('failed_count'),
    unknownCount: counter('unknown_count'),
    cancelledCount: counter('cancelled_count'),
    cancelRequestedAt: instant('cancel_requested_at'),
    idempotencyKey: text('idempotency_key').notNull(),
    bodyDigest: text('body_digest').notNull(),
    settledAt: instant('settled_at'),
    resolvedAt: instant('resolved_at'),
    expiresAt: instant('expires_at'),
    version: integer('version').notNull().default(1),
    lastProgressAt: instant('last_progress_at').notNull().defaultNow(),
    claimToken: text('claim_token'),
    claimExpiresAt: instant('claim_expires_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('credential_batches_submission_uq').on(t.tenantId, t.idempotencyKey),
    index('credential_batches_open_idx').on(t.lastProgressAt).where(sql`${t.state} in ('QUEUED', 'RUNNING')`),
    index('credential_batches_expiry_idx').on(t.expiresAt).where(sql`${t.expiresAt} is not null and ${t.state} <> 'EXPIRED'`),
    check(
      'credential_batches_counts_ck',
      sql`${t.queuedCount} >= 0 and ${t.processingCount} >= 0 and ${t.issuedCount} >= 0 and ${t.failedCount} >= 0 and ${t.unknownCount} >= 0 and ${t.cancelledCount} >= 0`,
    ),
  ],
);

/**
 * One item of a batch: its issuance request sealed with DATA_ENCRYPTION_KEY, its outcome, and the
 * operator's resolution of an unknown outcome. `attemptToken` marks the attempt in flight; an item
 * still PROCESSING when its batch is claimed again was interrupted and is never replayed.
 * `credentialId` is not a foreign key: deleting a credential later must not touch the batch's history.
 */
export const credentialBatchItems = pgTable(
  'credential_batch_items',
  {
    id: idColumn(),
    batchId: text('batch_id')
      .notNull()
      .references(() => credentialBatches.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    /** The issuer's own label, stored in plaintext so it can be shown and searched. */
    reference: text('reference'),
    state: batchItemStateEnum('state').notNull().default('QUEUED'),
    sealedRequest: text('sealed_request').notNull(),
    credentialId: text('credential_id'),
    warnings: jsonb('warnings'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    resolutionReason: text('resolution_reason'),
    resolutionEvidence: text('resolution_evidence'),
    resolvedAt: instant('resolved_at'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    attemptToken: text('attempt_token'),
    correlationId: text('correlation_id').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('credential_batch_items_index_uq').on(t.batchId, t.index),
    uniqueIndex('credential_batch_items_reference_uq').on(t.batchId, t.reference),
    index('credential_batch_items_tenant_credential_idx').on(t.tenantId, t.credentialId),
    // The batch's queued items in index order: a claim and the next-item read start at the first queued item, not at item 0.
    index('credential_batch_items_queued_idx').on(t.batchId, t.index).where(sql`${t.state} = 'QUEUED'`),
  ],
);
