import { defaultVerifyPage, humanVerificationHref } from '../../core/credentials/publish-credential.ts';
import '@hono/zod-openapi';
import * as z from 'zod';
import type { CredentialRecord, StatusEntryRow } from '../../core/credentials/credential-repository.ts';
import { notFound } from '../../core/errors.ts';
import { booleanFilter } from '../platform/filters.ts';
import { pageQuerySchema } from '../platform/pagination.ts';

const instant = () => z.string().openapi({ format: 'date-time' });

const IssuanceWarningSchema = z
  .object({
    code: z.string().openapi({ example: 'IDR_PUBLISH_FAILED' }),
    message: z.string(),
    pointer: z.string().optional().openapi({ description: 'JSON pointer into credentialPayload, for payload advisories' }),
  })
  .openapi('IssuanceWarning');

export const IssuedSchema = z
  .object({
    credentialId: z.string().openapi({ example: 'ckv9x2l0k0000qzrm8d1b2c3d' }),
    warnings: z.array(IssuanceWarningSchema).optional().openapi({ description: 'Present only when there are warnings; they never block issuance' }),
  })
  .openapi('IssuedCredential');

export const StatusEntrySchema = z
  .object({
    id: z.string(),
    statusPurpose: z.string().openapi({ example: 'revocation' }),
    type: z.string().openapi({ example: 'BitstringStatusListEntry' }),
    statusListCredential: z.string(),
    statusListIndex: z.string().openapi({ description: 'Canonical string form; the signed credential carries it as a number' }),
    value: z.boolean().nullable().openapi({ description: 'The last observed bit (false at issuance)' }),
    observedAt: instant().nullable(),
    version: z.number().int(),
  })
  .openapi('CredentialStatusEntry');

const recordFields = {
  id: z.string(),
  credentialType: z.string().openapi({ example: 'DigitalProductPassport' }),
  version: z.string().openapi({ example: '0.7.0' }),
  dataModelId: z.string().nullable(),
  coreCredentialType: z.string().nullable(),
  name: z.string().nullable(),
  issuerDid: z.string(),
  issuerName: z.string().nullable(),
  subjectId: z.string().nullable(),
  subjectName: z.string().nullable(),
  validFrom: instant().nullable(),
  validUntil: instant().nullable(),
  detailsStatus: z.string(),
  storageUri: z.string(),
  digestMultibase: z.string().openapi({ description: 'Multibase (base58btc) sha2-256 multihash of the stored object', example: 'zQm…' }),
  encrypted: z.boolean(),
  storageServiceInstanceId: z.string().nullable(),
  vcServiceInstanceId: z.string().nullable(),
  isPublished: z.boolean(),
  resolverUri: z.string().nullable(),
  organisationId: z.string().nullable(),
  facilityId: z.string().nullable(),
  productId: z.string().nullable(),
  tags: z.array(z.string()),
  statusEntries: z.array(StatusEntrySchema),
  createdAt: instant(),
  updatedAt: instant(),
};

export const CredentialListItemSchema = z.object(recordFields).openapi('CredentialListItem');
export const CredentialSchema = z
  .object({
    ...recordFields,
    decryptionKey: z.string().nullable().openapi({ description: 'The key of an encrypted stored copy (64 hex); null when stored in the clear' }),
    verifyUrl: z.string().openapi({
      description: 'The verify page for this credential (the same link publishing puts on the IDR). It carries the decryption key only when the issuance set publishingOptions.humanLinkIncludesKey; otherwise the page asks for it',
    }),
  })
  .openapi('Credential');

export const CredentialListQuery = z.object({
  ...pageQuerySchema,
  credentialType: z.string().optional(),
  version: z.string().optional(),
  organisationId: z.string().optional(),
  facilityId: z.string().optional(),
  productId: z.string().optional(),
  isPublished: booleanFilter(),
});

export const CredentialIdParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'ckv9x2l0k0000qzrm8d1b2c3d' }),
});

/**
 * Credential ids are made by `db/ids.ts` (a letter, then 23 letters or digits). Anything else names no
 * credential: it is the 404 of a missing one, before anything else is looked at, so the sibling path
 * segments `verify` and `batches` can never reach these routes' handlers.
 */
const CREDENTIAL_ID = /^[a-z][a-z0-9]{23}$/;
export const credentialIdOf = (param: { id: string }): string => {
  if (!CREDENTIAL_ID.test(param.id)) throw notFound('Credential');
  return param.id;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toStatusEntry = (row: StatusEntryRow): z.infer<typeof StatusEntrySchema> => ({
  id: row.id,
  statusPurpose: row.statusPurpose,
  type: row.type,
  statusListCredential: row.statusListCredential,
  statusListIndex: row.statusListIndex,
  value: row.value,
  observedAt: iso(row.observedAt),
  version: row.version,
});

export const toCredentialListItem = ({ record, credential, statusEntries }: CredentialRecord): z.infer<typeof CredentialListItemSchema> => ({
  id: credential.id,
  credentialType: credential.credentialType,
  version: credential.version,
  dataModelId: credential.dataModelId,
  coreCredentialType: record.coreCredentialType,
  name: record.name,
  issuerDid: credential.issuerDid,
  issuerName: record.issuerName,
  subjectId: record.subjectId,
  subjectName: record.subjectName,
  validFrom: iso(record.validFrom),
  validUntil: iso(record.validUntil),
  detailsStatus: record.detailsStatus,
  storageUri: credential.storageUri,
  digestMultibase: credential.digestMultibase,
  encrypted: credential.encrypted,
  storageServiceInstanceId: credential.storageServiceInstanceId,
  vcServiceInstanceId: credential.vcServiceInstanceId,
  isPublished: credential.isPublished,
  resolverUri: credential.resolverUri,
  organisationId: record.organisationId,
  facilityId: record.facilityId,
  productId: record.productId,
  tags: record.tags,
  statusEntries: statusEntries.map(toStatusEntry),
  createdAt: credential.createdAt.toISOString(),
  updatedAt: (record.updatedAt > credential.updatedAt ? record.updatedAt : credential.updatedAt).toISOString(),
});

/** The credential's human link: with its key only when its issuance chose so (publishingOptions.humanLinkIncludesKey). */
export const verifyUrlOf = (row: CredentialRecord, decryptionKey: string | null, appUrl: string) =>
  humanVerificationHref(defaultVerifyPage(appUrl), {
    uri: row.credential.storageUri,
    digestMultibase: row.credential.digestMultibase,
    encrypted: row.credential.encrypted,
    ...(row.credential.humanLinkIncludesKey && decryptionKey ? { decryptionKey } : {}),
  });

export const toCredentialResponse = (row: CredentialRecord, decryptionKey: string | null, appUrl: string): z.infer<typeof CredentialSchema> => ({
  ...toCredentialListItem(row),
  decryptionKey,
  verifyUrl: verifyUrlOf(row, decryptionKey, appUrl),
});
