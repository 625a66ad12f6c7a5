import { eq } from 'drizzle-orm';
import { dids, serviceInstances } from '../../db/schema/index.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import type { Database } from '../../db/client.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import { createVcAdapter } from '../../core/adapters/vc/vc-adapter.ts';
import { createGuardedFetch } from '../../core/net/guarded-fetch.ts';
import { startVcService, type VcService } from '../../vc-service/test/vc-harness.ts';
import { freePort } from './postgres-server.ts';
import type { TestApp } from './test-app.ts';

/** Where a VC instance's config points: the real VC service, or any URL and key. */
export interface VcTarget {
  url: string;
  apiKey: string;
}

export const vcConfig = (vc: VcTarget) => ({ baseUrl: vc.url, apiKey: vc.apiKey, apiVersion: '1.0.0' });

/** A base URL where nothing listens: the VC service as seen while it is down. */
export const unreachableVc = async (): Promise<VcTarget> => ({ url: `http://127.0.0.1:${await freePort()}`, apiKey: 'unreachable-vc-key' });

/** The VC service's own view (through the adapter), to check what it holds after a main-API call. */
export const vcAdapterOf = (vc: VcTarget) => createVcAdapter(vcConfig(vc), createGuardedFetch({ allowPrivate: true, userAgent: 'css-test' }));

/** Points a VC service instance (by id) at a target. */
export const pointVcInstance = async (t: TestApp, instanceId: string, vc: VcTarget) => {
  await t.db
    .update(serviceInstances)
    .set({ configEncrypted: await t.services.secretBox.encryptJson(vcConfig(vc)) })
    .where(eq(serviceInstances.id, instanceId));
};

/** Starts this project's VC service (vc-service/, with extra `env`) and points the system default VC instance of a test app at it. */
export const useVcServiceAsSystemVc = async (t: TestApp, env: Record<string, string> = {}): Promise<VcService> => {
  const vc = await startVcService({ env });
  await pointVcInstance(t, SYSTEM_SERVICE_IDS.VC, vc);
  return vc;
};

/** A tenant's own VC instance whose config points at a target. */
export const insertVcInstance = async (db: Database, box: SecretBox, tenantId: string, vc: VcTarget, isPrimary = false) => {
  const [row] = await db
    .insert(serviceInstances)
    .values({ tenantId, serviceType: 'VC', adapterType: 'VC_ADAPTER', name: `VC of ${tenantId}`, configEncrypted: await box.encryptJson(vcConfig(vc)), isPrimary })
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
