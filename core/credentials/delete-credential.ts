import type { Database } from '../../db/client.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { notFound } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { deleteStoredObject } from '../service-instances/storage-instance.ts';
import { deleteCredentialRecord } from './credential-repository.ts';

/**
 * Removes one of the tenant's issued credentials (404 for a missing or foreign id alike), then
 * best-effort its stored copy: a failure there is logged at warn with the storage location, never
 * raised. Revokes nothing; published links stay.
 */
export const deleteIssuedCredential = async (
  deps: { db: Database; box: SecretBox; fetcher: Fetcher; logger: Logger; correlationId?: string },
  tenantId: string,
  id: string,
): Promise<void> => {
  const removed = await deleteCredentialRecord(deps.db, tenantId, id);
  if (!removed) throw notFound('Credential');
  try {
    await deleteStoredObject(deps, { storageServiceInstanceId: removed.storageServiceInstanceId, objectId: removed.storageExternalId, encrypted: removed.encrypted });
  } catch (error) {
    deps.logger.warn('The stored copy of a deleted credential could not be removed', {
      correlationId: deps.correlationId,
      credentialId: id,
      storageUri: removed.storageUri,
      error: String(error),
    });
  }
};
