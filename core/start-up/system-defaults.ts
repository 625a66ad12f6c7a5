import { eq, sql } from 'drizzle-orm';
import { SecretBox } from '../crypto/secret-box.ts';
import { ConfigError } from '../errors.ts';
import type { SystemServiceDefinition } from '../settings/system-services.ts';
import type { Queryable } from '../../db/client.ts';
import { serviceInstances, systemMeta, tenants } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';
import { seedCoreDataModels } from '../data-models/core-data-models.ts';

export const KEY_CHECK = 'encryption_key_check';
const KEY_CHECK_PLAINTEXT = 'credential-support-service key check';

/**
 * Proves DATA_ENCRYPTION_KEY can read what earlier boots wrote: a check value sealed on first boot
 * must open with today's key, otherwise boot fails before any secret is read or rewritten.
 */
export const assertEncryptionKeyMatches = async (db: Queryable, box: SecretBox): Promise<void> => {
  const [row] = await db.select().from(systemMeta).where(eq(systemMeta.key, KEY_CHECK));
  if (!row) {
    await db
      .insert(systemMeta)
      .values({ key: KEY_CHECK, value: await box.encrypt(KEY_CHECK_PLAINTEXT) })
      .onConflictDoNothing();
    return;
  }
  const opened = await box.decrypt(row.value).catch(() => undefined);
  if (opened !== KEY_CHECK_PLAINTEXT) {
    throw new ConfigError('DATA_ENCRYPTION_KEY cannot decrypt existing data', 'ENCRYPTION_KEY_MISMATCH');
  }
};

/** Idempotent: the system tenant and the system default service instances (config re-encrypted each boot). */
export const seedSystemDefaults = async (
  db: Queryable,
  box: SecretBox,
  services: SystemServiceDefinition[],
): Promise<void> => {
  await db
    .insert(tenants)
    .values({ id: SYSTEM_TENANT_ID, name: 'System' })
    .onConflictDoNothing({ target: tenants.id });
  for (const service of services) {
    const configEncrypted = await box.encryptJson(service.config);
    await db
      .insert(serviceInstances)
      .values({ ...service, tenantId: SYSTEM_TENANT_ID, configEncrypted, isPrimary: true })
      .onConflictDoUpdate({
        target: serviceInstances.id,
        set: { configEncrypted, updatedAt: sql`now()` },
      });
  }
  await seedCoreDataModels(db);
};
