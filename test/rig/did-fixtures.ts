import { eq } from 'drizzle-orm';
import { dids, serviceInstances } from '../../db/schema/index.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import type { Database } from '../../db/client.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import { startVckitDouble, type VckitDouble } from '../doubles/vckit-double.ts';
import type { TestApp } from './test-app.ts';

export const vcConfig = (vckit: VckitDouble) => ({ baseUrl: vckit.url, apiKey: vckit.apiKey, apiVersion: '1.0.0' });

/** Points the system default VC instance of a test app at a fresh VCkit double. */
export const useVckitAsSystemVc = async (t: TestApp): Promise<VckitDouble> => {
  const vckit = await startVckitDouble();
  await t.db
    .update(serviceInstances)
    .set({ configEncrypted: await t.services.secretBox.encryptJson(vcConfig(vckit)) })
    .where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.VC));
  return vckit;
};

/** A tenant's own VC instance whose config points at a double. */
export const insertVcInstance = async (db: Database, box: SecretBox, tenantId: string, vckit: VckitDouble, isPrimary = false) => {
  const [row] = await db
    .insert(serviceInstances)
    .values({ tenantId, serviceType: 'VC', adapterType: 'VC_ADAPTER', name: `VC of ${tenantId}`, configEncrypted: await box.encryptJson(vcConfig(vckit)), isPrimary })
    .returning();
  return row!;
};

/** A DID record written straight to the database (for states the API cannot make). */
export const insertDidRecord = async (db: Database, values: Partial<typeof dids.$inferInsert> & { tenantId: string; did: string }) => {
  const [row] = await db
    .insert(dids)
    .values({ type: 'SELF_MANAGED', method: 'DID_WEB', status: 'UNVERIFIED', ...values })
    .returning();
  return row!;
};

export const didRow = async (db: Database, id: string) => (await db.select().from(dids).where(eq(dids.id, id)))[0];
