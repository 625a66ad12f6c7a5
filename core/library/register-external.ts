import { and, eq, ne } from 'drizzle-orm';
import { credentials, externalCredentials, libraryRecords } from '../../db/schema/index.ts';
import { adapterFailure } from '../adapters/adapter-failure.ts';
import { isUniqueViolation } from '../db-errors.ts';
import type { DomainDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { resolveTemplateStorage } from '../render-templates/template-storage.ts';
import { decodeEnvelopedPayload } from '../verification/enveloped-credential.ts';
import type { EnvelopedCredential } from '../verification/outcome.ts';
import { CORE_TYPE_CODES, type CoreTypeCode } from './credential-types.ts';
import { externalDetailsOf } from './record-details.ts';
import { deleteCopyBestEffort } from './durable-copy.ts';
import { attachClaimRecord, claimIdempotencyKey, finaliseClaim, releaseClaim } from '../idempotency/idempotency-claims.ts';
import { bodyDigest } from '../idempotency/idempotency-key.ts';
import { requestVerification } from './request-verification.ts';
import { assertSourceUrl, fetchSource, openSource, sha256Multibase, type OpenedContent } from './source-content.ts';

export interface LibraryDeps extends DomainDeps {
  jobs: JobQueue;
  correlationId?: string;
}

export interface RegistrationInput {
  sourceUrl: string;
  /** The supplier's key: opens the source once here and is never stored or logged. */
  supplierKey?: string;
  annotations: { displayName: string; declaredCredentialType: CoreTypeCode; dateReceived?: string; notes?: string };
  tags: string[];
}

export const recordLocation = (id: string) => `/api/v1/library/${id}`;

/** 409 DUPLICATE_CREDENTIAL: the route answers it with the existing record's `Location`. */
export class DuplicateCredentialError extends ApiError {
  constructor(readonly recordId: string) {
    super(409, 'This credential is already in the library.', 'DUPLICATE_CREDENTIAL');
  }
}
const duplicateCredential = (id: string) => new DuplicateCredentialError(id);

/** An earlier record of the tenant (other than `except`) with the same content: an external copy, or a credential issued here. */
export const findSameContent = async (deps: LibraryDeps, tenantId: string, contentDigest: string, except?: string): Promise<string | undefined> => {
  const [external] = await deps.db
    .select({ id: externalCredentials.id })
    .from(externalCredentials)
    .where(and(eq(externalCredentials.tenantId, tenantId), eq(externalCredentials.contentDigest, contentDigest), except ? ne(externalCredentials.id, except) : undefined))
    .limit(1);
  if (external) return external.id;
  const [native] = await deps.db
    .select({ id: credentials.id })
    .from(credentials)
    .where(and(eq(credentials.tenantId, tenantId), eq(credentials.digestMultibase, contentDigest)))
    .limit(1);
  return native?.id;
};

/**
 * Registers a credential received from elsewhere. The key is claimed first; the source is fetched
 * through the guarded fetcher and opened; the same source bytes already registered are 409
 * DUPLICATE_CREDENTIAL (with the record's location), the same content under another URL or key is
 * a DUPLICATE_CONTENT warning. Our durable copy goes to the tenant's storage instance, encrypted;
 * then one transaction writes the record, its external child, generation 1 (pending) with its job,
 * and the claim's outcome. A failure after the copy was stored removes it (or logs at warn that it
 * could not); a failure before the record frees the key.
 */
export const registerExternal = async (
  deps: LibraryDeps,
  input: { tenantId: string; idempotencyKey: string; body: unknown; staleClaimMinutes: number; registration: RegistrationInput },
): Promise<{ recordId: string; replayed: boolean }> => {
  const { tenantId, registration } = input;
  assertSourceUrl(registration.sourceUrl, deps.allowPrivateUrls);
  const claim = await claimIdempotencyKey(deps.db, deps.box, {
    tenantId,
    operation: 'LIBRARY_REGISTER',
    key: input.idempotencyKey,
    bodyDigest: await bodyDigest(input.body),
    staleAfterMinutes: input.staleClaimMinutes,
  });
  if (claim.kind === 'replay') return { recordId: claim.recordId, replayed: true };
  let recordId: string;
  try {
    const source = await fetchSource(deps.fetcher, registration.sourceUrl, deps.allowPrivateUrls);
    const opened = await openSource(source, registration.supplierKey);
    const sourceDigest = await sha256Multibase(source.bytes);
    const [existing] = await deps.db
      .select({ id: externalCredentials.id })
      .from(externalCredentials)
      .where(and(eq(externalCredentials.tenantId, tenantId), eq(externalCredentials.sourceDigest, sourceDigest)));
    if (existing) throw duplicateCredential(existing.id);
    const contentDigest = await sha256Multibase(opened.contentBytes);
    const sameContent = await findSameContent(deps, tenantId, contentDigest);
    recordId = await storeAndRecord(deps, { tenantId, claimId: claim.claimId, registration, opened, sourceDigest, contentDigest, sameContent });
  } catch (error) {
    await releaseClaim(deps.db, claim.claimId).catch((cleanup) =>
      deps.logger.warn('An idempotency claim could not be released; it frees itself when stale', { correlationId: deps.correlationId, error: String(cleanup) }),
    );
    throw error;
  }
  try {
    await finaliseClaim(deps.db, deps.box, claim.claimId, recordId, { recordId });
  } catch (error) {
    // The claim already names the record (attached in its transaction), so a replay still finds it.
    deps.logger.warn('The answer of a library registration could not be recorded on its claim', { correlationId: deps.correlationId, recordId, error: String(error) });
  }
  return { recordId, replayed: false };
};

/**
 * The record's descriptive fields at registration: read from an enveloped credential when there is
 * one (the worker reads them again from the verified copy), else the declared type and display name.
 */
export const describedBy = (opened: OpenedContent, declaredType: string, displayName: string) => {
  const payload = opened.kind === 'CREDENTIAL' && opened.document ? decodeEnvelopedPayload(opened.document as EnvelopedCredential) : undefined;
  if (payload) return externalDetailsOf(payload, { declaredType, displayName });
  return {
    name: displayName,
    credentialType: declaredType,
    coreCredentialType: declaredType,
    detailsStatus: opened.unopened ? ('EXTRACTION_PENDING' as const) : ('EXTRACTION_FAILED' as const),
    // Ciphertext nobody could open, or content that is no enveloped credential (or whose payload cannot be decoded).
    detailsError: opened.unopened ? 'UNREADABLE_ENVELOPE' : 'BRIDGE_ERROR',
  };
};

const storeAndRecord = async (
  deps: LibraryDeps,
  x: {
    tenantId: string;
    claimId: string;
    registration: RegistrationInput;
    opened: OpenedContent;
    sourceDigest: string;
    contentDigest: string;
    sameContent?: string;
  },
): Promise<string> => {
  const storage = await resolveTemplateStorage(deps, x.tenantId, undefined);
  const storageExternalId = crypto.randomUUID();
  let stored;
  try {
    stored = await storage.adapter.storeJson(x.opened.copy, { encrypt: true, id: storageExternalId });
  } catch (error) {
    throw adapterFailure(error, { logger: deps.logger, correlationId: deps.correlationId, action: 'keep a copy of the credential' });
  }
  const declared = CORE_TYPE_CODES[x.registration.annotations.declaredCredentialType];
  try {
    return await deps.db.transaction(async (tx) => {
      const [record] = await tx
        .insert(libraryRecords)
        .values({ tenantId: x.tenantId, origin: 'EXTERNAL', ...describedBy(x.opened, declared, x.registration.annotations.displayName), tags: x.registration.tags })
        .returning({ id: libraryRecords.id });
      const recordId = record!.id;
      await tx.insert(externalCredentials).values({
        id: recordId,
        tenantId: x.tenantId,
        sourceUrl: x.registration.sourceUrl,
        sourceDigest: x.sourceDigest,
        contentDigest: x.contentDigest,
        duplicateOfRecordId: x.sameContent ?? null,
        encrypted: x.opened.encrypted,
        unopened: x.opened.unopened,
        contentKind: x.opened.kind,
        storageServiceInstanceId: storage.id,
        storageUri: stored.uri,
        storageExternalId,
        storageDigestMultibase: stored.digestMultibase,
        wrappedCopyKey: await deps.box.encrypt(stored.decryptionKey!),
        displayName: x.registration.annotations.displayName,
        declaredCredentialType: declared,
        dateReceived: x.registration.annotations.dateReceived ?? null,
        notes: x.registration.annotations.notes ?? null,
        decryptionKeyUnused: x.opened.keyUnused,
      });
      await requestVerification(tx, deps.jobs, { tenantId: x.tenantId, recordId, origin: 'EXTERNAL' });
      await attachClaimRecord(tx, x.claimId, recordId);
      return recordId;
    });
  } catch (error) {
    await deleteCopyBestEffort(deps, { storageServiceInstanceId: storage.id, storageExternalId, storageUri: stored.uri }, storage.adapter);
    if (isUniqueViolation(error)) {
      const [winner] = await deps.db
        .select({ id: externalCredentials.id })
        .from(externalCredentials)
        .where(and(eq(externalCredentials.tenantId, x.tenantId), eq(externalCredentials.sourceDigest, x.sourceDigest)));
      if (winner) throw duplicateCredential(winner.id);
    }
    throw error;
  }
};
