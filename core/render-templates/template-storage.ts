import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { createStorageAdapter, type StorageAdapter, type StorageConfig } from '../adapters/storage/storage-adapter.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { serviceInstanceNotFound } from '../service-instances/visible-instance.ts';
import { visibleTo } from '../tenancy/visibility.ts';

export interface TemplateDeps {
  db: Database;
  box: SecretBox;
  fetcher: Fetcher;
  logger: Logger;
  allowPrivateUrls: boolean;
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
  const field = 'storageOptions.serviceInstanceId';
  const [row] = requestedId
    ? await deps.db
        .select()
        .from(serviceInstances)
        .where(and(eq(serviceInstances.id, requestedId), eq(serviceInstances.serviceType, 'STORAGE'), visibleTo(serviceInstances.tenantId, tenantId)))
    : await deps.db
        .select()
        .from(serviceInstances)
        .where(and(eq(serviceInstances.serviceType, 'STORAGE'), eq(serviceInstances.isPrimary, true), visibleTo(serviceInstances.tenantId, tenantId)))
        .orderBy(desc(eq(serviceInstances.tenantId, tenantId)))
        .limit(1);
  if (!row) throw serviceInstanceNotFound(field);
  return { id: row.id, adapter: await storageAdapterOf(deps, row.configEncrypted) };
};

export const storageAdapterOf = async (deps: TemplateDeps, configEncrypted: string) =>
  createStorageAdapter((await deps.box.decryptJson(configEncrypted)) as StorageConfig, deps.fetcher);

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
      await (await storageAdapterOf(deps, row.configEncrypted)).delete(item.storageObjectId, { encrypted: false });
    } catch (error) {
      deps.logger.warn('Template content could not be deleted from storage', { objectId: item.storageObjectId, error: String(error) });
    }
  }
};
