import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, instant, timestamps } from './columns.ts';
import { libraryRecords } from './credentials.ts';
import { serviceInstances } from './service-instances.ts';
import { tenants } from './tenants.ts';

export const CONTENT_KINDS = ['CREDENTIAL', 'JSON_OBJECT', 'OPAQUE'] as const;
export const RUN_STATES = ['PENDING', 'COMPLETE', 'FAILED'] as const;
export const CHECK_RESULTS = ['pass', 'fail', 'not_run'] as const;
export const RUN_SUMMARIES = ['pending', 'verified', 'not_conformant', 'failed'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export type RunState = (typeof RUN_STATES)[number];
export type CheckResult = (typeof CHECK_RESULTS)[number];
export type RunSummary = (typeof RUN_SUMMARIES)[number];

export const contentKindEnum = pgEnum('content_kind', CONTENT_KINDS);
export const runStateEnum = pgEnum('verification_run_state', RUN_STATES);
export const checkResultEnum = pgEnum('check_result', CHECK_RESULTS);
export const runSummaryEnum = pgEnum('verification_summary', RUN_SUMMARIES);

/**
 * A credential registered from a URL (the EXTERNAL child of a library record, same id). The service
 * keeps its own durable copy, encrypted by the tenant's storage instance; the storage key of that copy
 * is sealed with DATA_ENCRYPTION_KEY. A supplier's key is never stored.
 */
export const externalCredentials = pgTable(
  'external_credentials',
  {
    id: text('id')
      .primaryKey()
      .references(() => libraryRecords.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    sourceUrl: text('source_url').notNull(),
    /** sha2-256 multibase of the bytes the source answered: the same bytes twice are one registration. */
    sourceDigest: text('source_digest').notNull(),
    /** sha2-256 multibase of the opened content (after decryption): the same credential under another URL or key. */
    contentDigest: text('content_digest').notNull(),
    /** An earlier record of this tenant holding the same content (a warning, not a refusal). */
    duplicateOfRecordId: text('duplicate_of_record_id').references(() => libraryRecords.id, { onDelete: 'set null' }),
    /** The source answered an encrypted envelope. */
    encrypted: boolean('encrypted').notNull(),
    /** The envelope could not be opened (no supplier key): the copy holds ciphertext. */
    unopened: boolean('unopened').notNull().default(false),
    contentKind: contentKindEnum('content_kind').notNull(),
    storageServiceInstanceId: text('storage_service_instance_id').references(() => serviceInstances.id, { onDelete: 'set null' }),
    storageUri: text('storage_uri').notNull(),
    storageExternalId: text('storage_external_id').notNull(),
    storageDigestMultibase: text('storage_digest_multibase').notNull(),
    /** The storage service's key of the durable copy, sealed with DATA_ENCRYPTION_KEY. */
    wrappedCopyKey: text('wrapped_copy_key').notNull(),
    displayName: text('display_name').notNull(),
    declaredCredentialType: text('declared_credential_type').notNull(),
    dateReceived: date('date_received', { mode: 'string' }),
    notes: text('notes'),
    annotationVersion: integer('annotation_version').notNull().default(1),
    /** A supplier key was sent but the source was not encrypted. */
    decryptionKeyUnused: boolean('decryption_key_unused').notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('external_credentials_source_digest_uq').on(t.tenantId, t.sourceDigest), index('external_credentials_content_idx').on(t.tenantId, t.contentDigest)],
);

/**
 * One verification generation of a library record. Checks are null while PENDING; `summary` is
 * written when the run settles (core/library/verification-summary.ts is its one rule). At most one
 * PENDING run per record, so a re-verification joins the one in flight.
 */
export const verificationRuns = pgTable(
  'verification_runs',
  {
    id: idColumn(),
    recordId: text('record_id')
      .notNull()
      .references(() => libraryRecords.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull(),
    state: runStateEnum('state').notNull().default('PENDING'),
    summary: runSummaryEnum('summary').notNull().default('pending'),
    retrieval: checkResultEnum('retrieval'),
    decryption: checkResultEnum('decryption'),
    digest: checkResultEnum('digest'),
    proof: checkResultEnum('proof'),
    status: checkResultEnum('status'),
    temporal: checkResultEnum('temporal'),
    schemaConformance: checkResultEnum('schema_conformance'),
    schemaConformanceMessage: text('schema_conformance_message'),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    failureRetryable: boolean('failure_retryable'),
    sourceChanged: boolean('source_changed'),
    lastSourceCheckAt: instant('last_source_check_at'),
    requestedAt: instant('requested_at').notNull().defaultNow(),
    completedAt: instant('completed_at'),
    lastEnqueuedAt: instant('last_enqueued_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('verification_runs_generation_uq').on(t.recordId, t.generation),
    uniqueIndex('verification_runs_one_pending_uq').on(t.recordId).where(sql`${t.state} = 'PENDING'`),
    index('verification_runs_pending_idx').on(t.requestedAt).where(sql`${t.state} = 'PENDING'`),
    index('verification_runs_tenant_summary_idx').on(t.tenantId, t.summary),
  ],
);
