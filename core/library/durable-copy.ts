import type { DomainDeps } from '../deps.ts';
import { deleteStoredObject } from '../service-instances/storage-instance.ts';

export interface CopyCoordinates {
  storageServiceInstanceId: string | null;
  storageExternalId: string;
  storageUri: string;
}

/**
 * Removes our durable copy of an external credential from the storage service (private bucket).
 * Never raises: a copy that cannot be removed is logged at warn with where it is, so it is never
 * left behind unrecorded.
 */
export const deleteCopyBestEffort = async (deps: DomainDeps & { correlationId?: string }, copy: CopyCoordinates): Promise<void> => {
  try {
    await deleteStoredObject(deps, { storageServiceInstanceId: copy.storageServiceInstanceId, objectId: copy.storageExternalId, encrypted: true });
  } catch (error) {
    deps.logger.warn('Library copy could not be deleted from storage', {
      correlationId: deps.correlationId,
      storageServiceInstanceId: copy.storageServiceInstanceId,
      storageUri: copy.storageUri,
      error: String(error),
    });
  }
};
