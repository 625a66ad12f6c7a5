import '@hono/zod-openapi';
import * as z from 'zod';
import { CORE_TYPE_CODE_LIST, toTypeCode } from '../../core/library/credential-types.ts';
import type { RecordView } from '../../core/library/record-queries.ts';
import { capabilitiesOf, currencyOf, lifecycleOf, verificationOf, warningsOf, type RecordWarning } from '../../core/library/record-rules.ts';
import { CHECK_NAMES } from '../../core/library/verification-envelope.ts';
import { text } from '../platform/fields.ts';

const iso = () => z.string().openapi({ format: 'date-time' });
const check = z.enum(['pass', 'fail', 'not_run']);

const VerificationSchema = z
  .object({
    generation: z.number().int().min(1),
    state: z.enum(['pending', 'complete', 'failed']),
    requestedAt: iso(),
    completedAt: iso().optional(),
    checks: z.object(Object.fromEntries(CHECK_NAMES.map((name) => [name, check])) as Record<(typeof CHECK_NAMES)[number], typeof check>),
    summary: z.enum(['pending', 'verified', 'not_conformant', 'failed']),
    failure: z.object({ code: z.string(), message: z.string(), retryable: z.boolean() }).optional(),
    sourceChanged: z.boolean().nullable().optional(),
    lastSourceCheckAt: iso().optional(),
  })
  .openapi('LibraryVerification');

const WarningSchema = z
  .object({ code: z.string(), message: z.string(), relatedRecordId: z.string().optional() })
  .openapi('LibraryWarning');

export const CredentialRecordSchema = z
  .object({
    id: z.string(),
    origin: z.enum(['native', 'external']),
    credential: z.object({
      name: z.string().nullable(),
      credentialType: z.enum(CORE_TYPE_CODE_LIST).nullable(),
      issuerName: z.string().nullable(),
      issuerDid: z.string().nullable(),
      subjectName: z.string().nullable(),
      subjectId: z.string().nullable(),
      validFrom: iso().nullable(),
      validUntil: iso().nullable(),
    }),
    annotations: z
      .object({
        annotationVersion: z.number().int(),
        displayName: z.string(),
        declaredCredentialType: z.enum(CORE_TYPE_CODE_LIST),
        dateReceived: z.string().nullable(),
        notes: z.string().nullable(),
      })
      .nullable(),
    tags: z.array(z.string()),
    tagVersion: z.number().int().min(1),
    organisationId: z.string().nullable(),
    facilityId: z.string().nullable(),
    productId: z.string().nullable(),
    sourceUrl: z.string().nullable(),
    sourceDigest: z.string().nullable(),
    resolverUri: z.string().nullable(),
    issuedAt: iso().nullable(),
    encrypted: z.boolean().nullable(),
    hasKey: z.boolean(),
    verification: VerificationSchema,
    currencyStatus: z.enum(['current', 'not_yet_valid', 'expired', 'unknown']),
    detailsStatus: z.enum(['EXTRACTED', 'EXTRACTION_PENDING', 'EXTRACTION_FAILED']),
    detailsError: z.string().nullable(),
    status: z
      .object({
        capture: z.string(),
        statusCaptureError: z.string().nullable(),
        entries: z.array(
          z.object({
            entryId: z.string(),
            statusPurpose: z.string(),
            value: z.boolean().nullable(),
            observedAt: iso().nullable(),
            valueChangedAt: iso().nullable(),
            version: z.number().int(),
          }),
        ),
      })
      .nullable(),
    lifecycle: z.string().nullable(),
    capabilities: z.object({
      deletable: z.boolean(),
      annotatable: z.boolean(),
      taggable: z.boolean(),
      verifiable: z.boolean(),
      statusManageable: z.boolean(),
    }),
    warnings: z.array(WarningSchema),
    createdAt: iso(),
    updatedAt: iso(),
  })
  .openapi('CredentialRecord');
export type CredentialRecord = z.infer<typeof CredentialRecordSchema>;

export const CredentialRecordDetailSchema = CredentialRecordSchema.extend({
  storageUri: z.string().nullable(),
  digestMultibase: z.string().nullable(),
  decryptionKey: z.string().nullable().openapi({ description: 'Opens the stored copy; null when there is none or it cannot be revealed' }),
}).openapi('CredentialRecordDetail');

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** The keyless record (lists, batch-get, writes): never a storage location, digest or key. */
export const toCredentialRecord = (view: RecordView, now = new Date()): CredentialRecord => {
  const { record, native, external } = view;
  return {
    id: record.id,
    origin: record.origin === 'NATIVE' ? 'native' : 'external',
    credential: {
      name: record.name,
      credentialType: toTypeCode(record.coreCredentialType),
      issuerName: record.issuerName,
      issuerDid: record.issuerDid,
      subjectName: record.subjectName,
      subjectId: record.subjectId,
      validFrom: isoOrNull(record.validFrom),
      validUntil: isoOrNull(record.validUntil),
    },
    annotations: external
      ? {
          annotationVersion: external.annotationVersion,
          displayName: external.displayName,
          declaredCredentialType: toTypeCode(external.declaredCredentialType)!,
          dateReceived: external.dateReceived,
          notes: external.notes,
        }
      : null,
    tags: record.tags,
    tagVersion: record.tagVersion,
    organisationId: record.organisationId,
    facilityId: record.facilityId,
    productId: record.productId,
    sourceUrl: external?.sourceUrl ?? null,
    sourceDigest: external?.sourceDigest ?? null,
    resolverUri: native?.resolverUri ?? null,
    issuedAt: isoOrNull(record.validFrom),
    encrypted: native?.encrypted ?? external?.encrypted ?? null,
    hasKey: native ? native.wrappedDecryptionKey !== null : external !== null,
    verification: verificationOf(view),
    currencyStatus: currencyOf(record.validFrom, record.validUntil, now),
    detailsStatus: record.detailsStatus,
    detailsError: record.detailsError,
    status: native
      ? {
          capture: native.statusCapture,
          statusCaptureError: null,
          entries: view.statusEntries.map((e) => ({
            entryId: e.id,
            statusPurpose: e.statusPurpose,
            value: e.value,
            observedAt: isoOrNull(e.observedAt),
            valueChangedAt: isoOrNull(e.valueChangedAt),
            version: e.version,
          })),
        }
      : null,
    lifecycle: lifecycleOf(view),
    capabilities: capabilitiesOf(view),
    warnings: warningsOf(view),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
};

/** The detail adds where the stored copy is, its digest and the key that opens it (a key that cannot be revealed is null with a warning). */
export const toCredentialRecordDetail = (
  view: RecordView,
  stored: { storageUri: string | null; digestMultibase: string | null; decryptionKey: string | null; keyWarning?: RecordWarning },
): z.infer<typeof CredentialRecordDetailSchema> => {
  const keyless = toCredentialRecord(view);
  return {
    ...keyless,
    warnings: stored.keyWarning ? [...keyless.warnings, stored.keyWarning] : keyless.warnings,
    storageUri: stored.storageUri,
    digestMultibase: stored.digestMultibase,
    decryptionKey: stored.decryptionKey,
  };
};

export const RecordIdParam = z.object({
  id: text('id').openapi({ param: { name: 'id', in: 'path' }, example: 'ckv9x2l0k0000qzrm8d1b2c3d' }),
});

export const FailureSchema = z.object({ id: z.string(), code: z.string(), message: z.string() }).openapi('LibraryFailure');
