import type { DomainDeps } from '../deps.ts';
import type { StorageAdapter } from '../adapters/storage/storage-adapter.ts';
import { deleteStoredObject } from '../service-instances/storage-instance.ts';

export interface CopyCoordinates {
  storageServiceInstanceId: string | null;
  storageExternalId: string;
  storageUri: string;
}

/**
 * Removes our durable copy of an external credential from the storage service (private bucket).
 * Never raises: a copy that cannot be removed is logged at warn with where it is, so it is never
 * left behind unrecorded. A caller that just stored the copy passes the adapter it stored it with.
 */
export const deleteCopyBestEffort = async (
  deps: DomainDeps & { correlationId?: string },
  copy: CopyCoordinates,
  adapter?: StorageAdapter,
): Promise<void> => {
  try {
    if (adapter) await adapter.delete(copy.storageExternalId, { encrypted: true });
    else await deleteStoredObject(deps, { storageServiceInstanceId: copy.storageServiceInstanceId, objectId: copy.storageExternalId, encrypted: true });
  } catch (error) {
    deps.logger.warn('Library copy could not be deleted from storage', {
      correlationId: deps.correlationId,
      storageServiceInstanceId: copy.storageServiceInstanceId,
      storageUri: copy.storageUri,
      error: String(error),
    });
  }
};
