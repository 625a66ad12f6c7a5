import { eq } from 'drizzle-orm';
import type { DomainDeps } from '../deps.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import type { StorageAdapter } from '../adapters/storage/storage-adapter.ts';
import { resolveStorageInstance, storageAdapterFor } from '../service-instances/storage-instance.ts';

export interface TemplateDeps extends DomainDeps {
  /** The request's, for log lines about upstream failures. */
  correlationId?: string;
}

/**
 * The storage instance for template content: the one named in storageOptions (own or system, 404
 * naming `storageOptions.serviceInstanceId` otherwise), else the tenant's primary storage instance,
 * else the system default.
 */
export const resolveTemplateStorage = async (
  deps: TemplateDeps,
  tenantId: string,
  requestedId: string | undefined,
): Promise<{ id: string; adapter: StorageAdapter }> => {
  const row = await resolveStorageInstance(deps.db, tenantId, requestedId, 'storageOptions.serviceInstanceId');
  return { id: row.id, adapter: await storageAdapterFor(deps, row.configEncrypted) };
};

/** Removes stored content after its record is gone; failures are logged, never raised. */
export const deleteContentBestEffort = async (
  deps: TemplateDeps,
  items: { storageServiceInstanceId: string | null; storageObjectId: string }[],
): Promise<void> => {
  for (const item of items) {
    if (!item.storageServiceInstanceId) continue;
    try {
      const [row] = await deps.db.select().from(serviceInstances).where(eq(serviceInstances.id, item.storageServiceInstanceId));
      if (!row) continue;
      await (await storageAdapterFor(deps, row.configEncrypted)).delete(item.storageObjectId, { encrypted: false });
    } catch (error) {
      deps.logger.warn('Template content could not be deleted from storage', { objectId: item.storageObjectId, error: String(error) });
    }
  }
};
