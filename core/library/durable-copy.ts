import { eq } from 'drizzle-orm';
import { serviceInstances } from '../../db/schema/index.ts';
import type { DomainDeps } from '../deps.ts';
import { storageAdapterOf } from '../render-templates/template-storage.ts';

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
    if (!copy.storageServiceInstanceId) throw new Error('its storage service instance no longer exists');
    const [row] = await deps.db.select().from(serviceInstances).where(eq(serviceInstances.id, copy.storageServiceInstanceId));
    if (!row) throw new Error('its storage service instance no longer exists');
    await (await storageAdapterOf(deps, row.configEncrypted)).delete(copy.storageExternalId, { encrypted: true });
  } catch (error) {
    deps.logger.warn('Library copy could not be deleted from storage', {
      correlationId: deps.correlationId,
      storageServiceInstanceId: copy.storageServiceInstanceId,
      storageUri: copy.storageUri,
      error: String(error),
    });
  }
};
