import { and, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { createStorageAdapter, type StorageAdapter, type StorageConfig } from '../adapters/storage/storage-adapter.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { prepared, tenantParam } from '../prepared-queries.ts';
import { visibleTo } from '../tenancy/visibility.ts';
import { serviceInstanceNotFound } from './visible-instance.ts';

export type StorageInstance = typeof serviceInstances.$inferSelect;

/**
 * The storage instance for content a tenant stores: the requested one (its own or a system storage
 * instance; anything else is the 404 `SERVICE_INSTANCE_NOT_FOUND` naming `field`), else the
 * tenant's primary storage instance, else the system default.
 */
export const resolveStorageInstance = async (db: Queryable, tenantId: string, requestedId: string | undefined, field: string): Promise<StorageInstance> => {
  const [row] = requestedId
    ? await prepared(db, 'storageInstance.requested', (d) =>
        d
          .select()
          .from(serviceInstances)
          .where(and(eq(serviceInstances.id, sql.placeholder('id')), eq(serviceInstances.serviceType, 'STORAGE'), visibleTo(serviceInstances.tenantId, tenantParam)))
          .prepare('storage_instance_requested'),
      ).execute({ id: requestedId, tenantId })
    : await prepared(db, 'storageInstance.primary', (d) =>
        d
          .select()
          .from(serviceInstances)
          .where(and(eq(serviceInstances.serviceType, 'STORAGE'), eq(serviceInstances.isPrimary, true), visibleTo(serviceInstances.tenantId, tenantParam)))
          .orderBy(desc(eq(serviceInstances.tenantId, tenantParam)))
          .limit(1)
          .prepare('storage_instance_primary'),
      ).execute({ tenantId });
  if (!row) throw serviceInstanceNotFound(field);
  return row;
};

export const storageAdapterFor = async (deps: { box: SecretBox; fetcher: Fetcher; correlationId?: string }, configEncrypted: string): Promise<StorageAdapter> =>
  createStorageAdapter((await deps.box.openConfig(configEncrypted)) as StorageConfig, deps.fetcher, { correlationId: deps.correlationId });

/**
 * Deletes one stored object through the storage instance that holds it; throws when that instance
 * is gone (or unset) or the delete fails. Callers that remove a record first catch it and log where
 * the object is, so nothing is left upstream without a trace here.
 */
export const deleteStoredObject = async (
  deps: { db: Queryable; box: SecretBox; fetcher: Fetcher },
  object: { storageServiceInstanceId: string | null; objectId: string; encrypted: boolean },
): Promise<void> => {
  const [instance] = object.storageServiceInstanceId
    ? await deps.db.select().from(serviceInstances).where(eq(serviceInstances.id, object.storageServiceInstanceId))
    : [];
  if (!instance) throw new Error('its storage service instance no longer exists');
  await (await storageAdapterFor(deps, instance.configEncrypted)).delete(object.objectId, { encrypted: object.encrypted });
};
