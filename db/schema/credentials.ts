import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, instant, timestamps } from './columns.ts';
import { dataModels } from './data-models.ts';
import { facilities, organisations, products } from './master-data.ts';
import { serviceInstances } from './service-instances.ts';
import { tenants } from './tenants.ts';

export const RECORD_ORIGINS = ['NATIVE', 'EXTERNAL'] as const;
export const DETAILS_STATUSES = ['EXTRACTED', 'EXTRACTION_PENDING', 'EXTRACTION_FAILED'] as const;
export const STATUS_CAPTURES = ['CAPTURED', 'FAILED', 'NONE'] as const;
export const IDEMPOTENT_OPERATIONS = ['CREDENTIAL_ISSUE', 'LIBRARY_REGISTER'] as const;
export type RecordOrigin = (typeof RECORD_ORIGINS)[number];
export type DetailsStatus = (typeof DETAILS_STATUSES)[number];
export type StatusCapture = (typeof STATUS_CAPTURES)[number];
export type IdempotentOperation = (typeof IDEMPOTENT_OPERATIONS)[number];

export const recordOriginEnum = pgEnum('record_origin', RECORD_ORIGINS);
export const detailsStatusEnum = pgEnum('details_status', DETAILS_STATUSES);
export const statusCaptureEnum = pgEnum('status_capture', STATUS_CAPTURES);
export const idempotentOperationEnum = pgEnum('idempotent_operation', IDEMPOTENT_OPERATIONS);

/**
 * One credential a tenant holds: issued here (NATIVE, detail in `credentials`) or received from
 * elsewhere (EXTERNAL, detail in the library's own table). The descriptive fields are what the
 * library lists and filters on; they are extracted from the decoded credential.
 */
export const libraryRecords = pgTable(
  'library_records',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    origin: recordOriginEnum('origin').notNull(),
    /** The requested type (a core type or an extension's name). */
    credentialType: text('credential_type'),
    /** DigitalProductPassport … DigitalIdentityAnchor, or null when not one of the five. */
    coreCredentialType: text('core_credential_type'),
    coreVersion: text('core_version'),
    name: text('name'),
    issuerName: text('issuer_name'),
    issuerDid: text('issuer_did'),
    subjectName: text('subject_name'),
    subjectId: text('subject_id'),
    validFrom: instant('valid_from'),
    validUntil: instant('valid_until'),
    detailsStatus: detailsStatusEnum('details_status').notNull().default('EXTRACTION_PENDING'),
    detailsError: text('details_error'),
    organisationId: text('organisation_id').references(() => organisations.id, { onDelete: 'set null' }),
    facilityId: text('facility_id').references(() => facilities.id, { onDelete: 'set null' }),
    productId: text('product_id').references(() => products.id, { onDelete: 'set null' }),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    tagVersion: integer('tag_version').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    index('library_records_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    // The library's default order: issuedAt (validFrom) newest first, undated last, then id.
    index('library_records_tenant_valid_from_idx').on(t.tenantId, t.validFrom.desc().nullsLast(), t.id),
    index('library_records_tags_idx').using('gin', t.tags),
  ],
);

/** A credential issued here: where the signed envelope is stored and how it was made. */
export const credentials = pgTable(
  'credentials',
  {
    id: text('id')
      .primaryKey()
      .references(() => libraryRecords.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    credentialType: text('credential_type').notNull(),
    version: text('version').notNull(),
    dataModelId: text('data_model_id').references(() => dataModels.id, { onDelete: 'set null' }),
    issuerDid: text('issuer_did').notNull(),
    vcServiceInstanceId: text('vc_service_instance_id').references(() => serviceInstances.id, { onDelete: 'set null' }),
    storageServiceInstanceId: text('storage_service_instance_id').references(() => serviceInstances.id, { onDelete: 'set null' }),
    storageUri: text('storage_uri').notNull(),
    storageExternalId: text('storage_external_id').notNull(),
    digestMultibase: text('digest_multibase').notNull(),
    encrypted: boolean('encrypted').notNull(),
    /** The storage decryption key sealed with DATA_ENCRYPTION_KEY; null when stored in the clear. */
    wrappedDecryptionKey: text('wrapped_decryption_key'),
    statusCapture: statusCaptureEnum('status_capture').notNull(),
    statusCapturedAt: instant('status_captured_at'),
    isPublished: boolean('is_published').notNull().default(false),
    resolverUri: text('resolver_uri'),
    /** publishingOptions.humanLinkIncludesKey: the human link (verifyUrl, QR code, IDR) carries the decryption key. */
    humanLinkIncludesKey: boolean('human_link_includes_key').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('credentials_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('credentials_vc_instance_idx').on(t.vcServiceInstanceId),
  ],
);

/**
 * One status entry per purpose of a credential, as the VC service minted it. `value` is the last
 * observed bit; `version` fences writes (If-Version). Pending fields belong to the status operation
 * in flight, written before the VC service is called.
 */
export const credentialStatusEntries = pgTable(
  'credential_status_entries',
  {
    id: idColumn(),
    credentialId: text('credential_id')
      .notNull()
      .references(() => credentials.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    statusPurpose: text('status_purpose').notNull(),
    type: text('type').notNull(),
    statusListCredential: text('status_list_credential').notNull(),
    statusListIndex: text('status_list_index').notNull(),
    statusListIssuer: text('status_list_issuer').notNull(),
    /** The entry exactly as it appears in the signed credential. */
    descriptor: jsonb('descriptor').notNull(),
    value: boolean('value'),
    observedAt: instant('observed_at'),
    valueChangedAt: instant('value_changed_at'),
    version: integer('version').notNull().default(1),
    pendingValue: boolean('pending_value'),
    pendingSince: instant('pending_since'),
    pendingDeadline: instant('pending_deadline'),
    /** Which VC service the pending operation was sent to (instance and base URL digest): reconcile refuses another unless told to accept it. */
    pendingProvider: text('pending_provider'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('credential_status_entries_purpose_uq').on(t.credentialId, t.statusPurpose),
    index('credential_status_entries_pending_idx').on(t.tenantId).where(sql`${t.pendingSince} is not null`),
  ],
);

/**
 * A claimed `Idempotency-Key`: the body digest decides replay (same) or mismatch (other); a claim
 * without `finalisedAt` is in flight until it is stale. The stored answer is sealed.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    operation: idempotentOperationEnum('operation').notNull(),
    key: text('key').notNull(),
    bodyDigest: text('body_digest').notNull(),
    /** Deleting the record frees the key. */
    recordId: text('record_id').references(() => libraryRecords.id, { onDelete: 'cascade' }),
    sealedResponse: text('sealed_response'),
    claimedAt: instant('claimed_at').notNull().defaultNow(),
    finalisedAt: instant('finalised_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('idempotency_keys_claim_uq').on(t.tenantId, t.operation, t.key), uniqueIndex('idempotency_keys_record_uq').on(t.recordId)],
);
