import { eq } from 'drizzle-orm';
import { serviceInstances } from '../../db/schema/index.ts';
import type { DomainDeps } from '../deps.ts';
import type { StorageAdapter } from '../adapters/storage/storage-adapter.ts';
import { storageAdapterOf } from '../render-templates/template-storage.ts';

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
    await (adapter ?? (await adapterOfInstance(deps, copy.storageServiceInstanceId))).delete(copy.storageExternalId, { encrypted: true });
  } catch (error) {
    deps.logger.warn('Library copy could not be deleted from storage', {
      correlationId: deps.correlationId,
      storageServiceInstanceId: copy.storageServiceInstanceId,
      storageUri: copy.storageUri,
      error: String(error),
    });
  }
};

const adapterOfInstance = async (deps: DomainDeps, instanceId: string | null): Promise<StorageAdapter> => {
  const [row] = instanceId ? await deps.db.select().from(serviceInstances).where(eq(serviceInstances.id, instanceId)) : [];
  if (!row) throw new Error('its storage service instance no longer exists');
  return storageAdapterOf(deps, row.configEncrypted);
};
