import { count, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { credentials, serviceInstances } from '../../db/schema/index.ts';
import { startStorage, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { issueBody, pointStorageInstance, SAMPLES, samplePayload, storageConfig } from '../../test/rig/credential-fixtures.ts';
import { useVcServiceAsSystemVc } from '../../test/rig/did-fixtures.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import type { TestApp } from '../../test/rig/test-app.ts';
import type { VcService } from '../../vc-service/test/vc-harness.ts';

let vc: VcService | undefined;
let storage: StorageHarness | undefined;
afterAll(async () => {
  await vc?.stop();
  await storage?.close();
});

interface Fixture {
  credentialId: string;
  didOfA: string;
  didOfB: string;
  storageOfA: string;
}

const makeDid = async (t: TestApp, token: string, alias: string) => (await t.call('POST', '/api/v1/dids', { token, body: { type: 'MANAGED', method: 'DID_WEB', alias } })).body.did as string;
const dpp = (did: string, extra: Record<string, unknown> = {}) => issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did), extra);

const context = securitySuite<Fixture>({
  name: '/credentials',
  app: { env: { FETCH_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'debug' } },
  setup: async (t, tokenA, tokenB) => {
    storage = await startStorage('local');
    vc = await useVcServiceAsSystemVc(t);
    await pointStorageInstance(t, SYSTEM_SERVICE_IDS.STORAGE, storage.url);
    const didOfA = await makeDid(t, tokenA, 'tenant-a');
    const didOfB = await makeDid(t, tokenB, 'tenant-b');
    const issued = await t.call('POST', '/api/v1/credentials', { token: tokenA, body: dpp(didOfA, { tags: ['mine'] }) });
    if (issued.status !== 201) throw new Error(`issue: ${issued.status} ${issued.text}`);
    const [own] = await t.db
      .insert(serviceInstances)
      .values({ tenantId: await t.tenantOf('tenantA'), serviceType: 'STORAGE', adapterType: 'STORAGE_ADAPTER', name: 'A storage', configEncrypted: await t.services.secretBox.encryptJson(storageConfig(storage.url)) })
      .returning();
    return { credentialId: issued.body.credentialId, didOfA, didOfB, storageOfA: own!.id };
  },
  routes: (f) => [
    ['POST', '/api/v1/credentials', dpp(f.didOfA)],
    ['GET', '/api/v1/credentials', undefined],
    ['GET', `/api/v1/credentials/${f.credentialId}`, undefined],
    ['GET', `/api/v1/credentials/${f.credentialId}/qr`, undefined],
    ['DELETE', `/api/v1/credentials/${f.credentialId}`, undefined],
  ],
  foreign: (f) => [
    { method: 'GET', path: (id) => `/api/v1/credentials/${id}`, id: f.credentialId },
    { method: 'GET', path: (id) => `/api/v1/credentials/${id}/qr?target=resolver`, id: f.credentialId },
    { method: 'DELETE', path: (id) => `/api/v1/credentials/${id}`, id: f.credentialId },
    { method: 'POST', path: () => '/api/v1/credentials', body: (id) => dpp(f.didOfB, { storageOptions: { serviceInstanceId: id } }), id: f.storageOfA },
  ],
  lists: (f) => [{ path: '/api/v1/credentials?limit=100', hidden: [f.credentialId] }],
  snapshot: async (t, f, tokenA) => (await t.call('GET', `/api/v1/credentials/${f.credentialId}`, { token: tokenA })).body,
  count: async (db) => (await db.select({ n: count() }).from(credentials))[0]!.n,
});

describe('/credentials secrets', () => {
  it('the decryption key appears in the single-record answer only, never in a list or a log line (failures included)', async () => {
    const { t, tokenA, fixture } = context();
    const tenantStorage = { storageOptions: { serviceInstanceId: fixture.storageOfA } };
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const issued = await t.call('POST', '/api/v1/credentials', { token: tokenA, body: dpp(fixture.didOfA, tenantStorage) });
      expect(issued.status).toBe(201);
      expect(issued.text).not.toMatch(/[0-9a-f]{64}/);
      const one = await t.call('GET', `/api/v1/credentials/${issued.body.credentialId}`, { token: tokenA });
      const key = one.body.decryptionKey as string;
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      const list = await t.call('GET', '/api/v1/credentials?limit=100', { token: tokenA });
      expect(list.text).not.toContain(key);
      // The stored copy cannot be removed any more: the delete logs where it was.
      await t.db.update(serviceInstances).set({ configEncrypted: await t.services.secretBox.encryptJson(storageConfig(`http://127.0.0.1:${await freePort()}`)) }).where(eq(serviceInstances.id, fixture.storageOfA));
      expect((await t.call('DELETE', `/api/v1/credentials/${issued.body.credentialId}`, { token: tokenA })).status).toBe(204);
      expect(lines.some((l) => l.includes('could not be removed') && l.includes(one.body.storageUri))).toBe(true);
      expect(lines.filter((l) => l.includes(key))).toEqual([]);
    } finally {
      log.mockRestore();
    }
  });
});
