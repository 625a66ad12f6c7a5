import { and, eq } from 'drizzle-orm';
import { externalCredentials, libraryRecords } from '../../db/schema/index.ts';
import { adapterFailure } from '../adapters/adapter-failure.ts';
import { ApiError, badRequest } from '../errors.ts';
import { resolveTemplateStorage } from '../render-templates/template-storage.ts';
import { decryptEnvelope } from '../verification/decryption.ts';
import { VerificationStop } from '../verification/outcome.ts';
import { retrieve } from '../verification/retrieve.ts';
import { deleteCopyBestEffort } from './durable-copy.ts';
import type { RecordView } from './record-queries.ts';
import { describedBy, findSameContent, type LibraryDeps } from './register-external.ts';
import { requestVerification } from './request-verification.ts';
import { openSource, sha256Multibase } from './source-content.ts';
import { storedCopyOf, unwrapKey } from './stored-copy.ts';

const copyUnreadable = (why: string) => new ApiError(502, `The stored copy could not be read: ${why}`, 'STORAGE_UNAVAILABLE');
const keyNotTaken = () => badRequest('sourceEncryption: only an external record whose copy is still encrypted takes a key', 'SOURCE_ENCRYPTION_NOT_ALLOWED');

/** Whether the record's copy is still the supplier's ciphertext, as committed now (not as the request first read it). */
const stillUnopened = async (deps: LibraryDeps, tenantId: string, id: string) => {
  const [row] = await deps.db
    .select({ unopened: externalCredentials.unopened })
    .from(externalCredentials)
    .where(and(eq(externalCredentials.id, id), eq(externalCredentials.tenantId, tenantId)));
  return row?.unopened === true;
};

/**
 * Key-bearing recovery (`POST /library/{id}/verify` with `sourceEncryption`): an external record whose
 * copy still holds the supplier's ciphertext is opened with the supplier's key, used here once and never
 * kept. The ciphertext comes from our own copy (what was registered, not what the source says today);
 * the plaintext becomes the new durable copy, and one transaction swaps the copy, the details and the
 * content digest and requests the next generation. The old copy is then removed, best effort; if the
 * transaction fails, or a concurrent recovery opened the copy first, the new one is.
 */
export const openWithSupplierKey = async (deps: LibraryDeps, tenantId: string, view: RecordView, supplierKey: string): Promise<void> => {
  const external = view.external;
  if (!external?.unopened) throw keyNotTaken();
  const copy = storedCopyOf(view)!;
  const ourKey = await unwrapKey(deps.box, copy.wrappedKey!);
  if (ourKey === undefined) throw new ApiError(500, 'This credential record cannot be read.', 'RECORD_UNREADABLE');
  let ciphertext: Uint8Array;
  try {
    const retrieved = await retrieve(deps.fetcher, copy.storageUri, deps.allowPrivateUrls);
    ciphertext = (await decryptEnvelope(retrieved.document, ourKey)).bytes;
  } catch (error) {
    // A concurrent recovery opened the record after this one read it, and removed the ciphertext copy: the record
    // is answered as an opened one is, not as a storage fault.
    if (!(await stillUnopened(deps, tenantId, external.id))) throw keyNotTaken();
    if (error instanceof VerificationStop) throw copyUnreadable(error.message);
    throw error;
  }
  const opened = await openSource({ bytes: ciphertext, contentType: 'application/json' }, supplierKey);
  const contentDigest = await sha256Multibase(opened.contentBytes);
  const sameContent = await findSameContent(deps, tenantId, contentDigest, view.record.id);

  const storage = await resolveTemplateStorage(deps, tenantId, undefined);
  const storageExternalId = crypto.randomUUID();
  let stored;
  try {
    stored = await storage.adapter.storeJson(opened.copy, { encrypt: true, id: storageExternalId });
  } catch (error) {
    throw adapterFailure(error, { logger: deps.logger, correlationId: deps.correlationId, action: 'keep a copy of the credential' });
  }
  const newCopy = { storageServiceInstanceId: storage.id, storageExternalId, storageUri: stored.uri };
  let swapped = false;
  try {
    swapped = await deps.db.transaction(async (tx) => {
      const [won] = await tx
        .update(externalCredentials)
        .set({
          ...newCopy,
          unopened: false,
          contentKind: opened.kind,
          contentDigest,
          duplicateOfRecordId: sameContent ?? null,
          storageDigestMultibase: stored.digestMultibase,
          wrappedCopyKey: await deps.box.encrypt(stored.decryptionKey!),
        })
        // Only while the copy is still the ciphertext: a concurrent recovery that opened it first wins.
        .where(and(eq(externalCredentials.id, external.id), eq(externalCredentials.unopened, true)))
        .returning({ id: externalCredentials.id });
      if (!won) return false;
      await tx
        .update(libraryRecords)
        .set(describedBy(opened, external.declaredCredentialType, external.displayName))
        .where(eq(libraryRecords.id, external.id));
      await requestVerification(tx, deps.jobs, { tenantId, recordId: external.id, origin: 'EXTERNAL' });
      return true;
    });
  } catch (error) {
    await deleteCopyBestEffort(deps, newCopy, storage.adapter);
    throw error;
  }
  // Lost to a concurrent recovery: its copy and generation stand, ours is removed (never left unrecorded).
  if (!swapped) return deleteCopyBestEffort(deps, newCopy, storage.adapter);
  await deleteCopyBestEffort(deps, external);
};
