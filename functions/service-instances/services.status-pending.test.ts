import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dids, serviceInstances } from '../../db/schema/index.ts';
import { startVcService, type VcService } from '../../vc-service/test/vc-harness.ts';
import { startFaultProxy, type FaultProxy } from '../../test/rig/fault-proxy.ts';
import { insertDidRecord, insertVcInstance, vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { recordCredential } from '../../test/rig/status-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

/**
 * Spec, service instances: while credentials using an instance have pending status operations, a
 * changed config is 409 SERVICE_INSTANCE_STATUS_PENDING and a delete is refused even with force. The
 * pending operation here is a real one whose answer the VC service never gave.
 */
let t: TestApp;
let vc: VcService;
let proxy: FaultProxy;
let token: string;
let tenantId: string;
let did: string;

beforeAll(async () => {
  [t, vc] = await Promise.all([
    startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true', CREDENTIAL_STATUS_MUTATION_ENABLED: 'true', CREDENTIAL_STATUS_OPERATION_BUDGET_MS: '60000' } }),
    startVcService(),
  ]);
  proxy = await startFaultProxy(vc.url);
  token = await t.token('tenantA');
  await t.call('GET', '/api/v1/services', { token });
  tenantId = await t.tenantOf('tenantA');
  did = (await vcAdapterOf(vc).createDid('pending-instances.example.com')).did;
});
afterAll(async () => {
  await t.close();
  await proxy.close();
  await vc.stop();
});

/** A VC instance (behind the proxy) with a credential whose suspension operation is left pending. */
const instanceWithPendingOperation = async () => {
  const instance = await insertVcInstance(t.db, t.services.secretBox, tenantId, { url: proxy.url, apiKey: vc.apiKey });
  // An issuer of its own: its status list is held by this pending operation alone.
  const issuer = (await vcAdapterOf(vc).createDid(`pending-${crypto.randomUUID().slice(0, 8)}.example.com`)).did;
  const { id } = await recordCredential(t, { tenantId, vc, instanceId: instance.id, did: issuer, purposes: ['suspension'] });
  proxy.rule(/./, 'down');
  const res = await t.call('PUT', `/api/v1/credentials/${id}/status/suspension`, { token, body: { value: true }, headers: { 'if-version': '1' } });
  proxy.reset();
  expect(res.body.code).toBe('STATUS_OUTCOME_UNKNOWN');
  return instance;
};
const patch = (id: string, body: unknown) => t.call('PATCH', `/api/v1/services/${id}`, { token, body });
const row = async (id: string) => (await t.db.select().from(serviceInstances).where(eq(serviceInstances.id, id)))[0];

describe('a VC instance with a pending status operation', () => {
  it('PATCH: a changed config is 409 SERVICE_INSTANCE_STATUS_PENDING and nothing is written; name, description, primary and an unchanged config pass', async () => {
    const instance = await instanceWithPendingOperation();
    for (const config of [{ baseUrl: vc.url }, { apiKey: 'another-key-0123456789' }]) {
      const res = await patch(instance.id, { config, name: 'not applied' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: expect.any(String), code: 'SERVICE_INSTANCE_STATUS_PENDING' });
    }
    expect(await row(instance.id)).toEqual(instance);
    for (const body of [{ name: 'Renamed' }, { description: 'now described' }, { description: null }, { isPrimary: true }, { config: { baseUrl: proxy.url, apiKey: vc.apiKey } }]) {
      const res = await patch(instance.id, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
    }
    expect(await row(instance.id)).toMatchObject({ name: 'Renamed', description: null, isPrimary: true, configEncrypted: instance.configEncrypted });
  });

  it('DELETE, with or without force: 409 SERVICE_INSTANCE_STATUS_PENDING; the instance and the references force would clear stay', async () => {
    const instance = await instanceWithPendingOperation();
    const referencing = await insertDidRecord(t.db, { tenantId, did: `did:web:pending-ref-${instance.id}.example.com`, serviceInstanceId: instance.id });
    for (const query of ['', '?force=false', '?force=true']) {
      const res = await t.call('DELETE', `/api/v1/services/${instance.id}${query}`, { token });
      expect(res.status, query).toBe(409);
      expect(res.body.code).toBe('SERVICE_INSTANCE_STATUS_PENDING');
    }
    expect(await row(instance.id)).toBeDefined();
    expect((await t.db.select().from(dids).where(eq(dids.id, referencing.id)))[0]!.serviceInstanceId).toBe(instance.id);
  });

  it("another instance's pending operation blocks nothing here", async () => {
    await instanceWithPendingOperation();
    const other = await insertVcInstance(t.db, t.services.secretBox, tenantId, { url: vc.url, apiKey: vc.apiKey });
    await recordCredential(t, { tenantId, vc, instanceId: other.id, did, purposes: ['suspension'] });
    expect((await patch(other.id, { config: { apiKey: 'changed-key-0123456789' } })).status).toBe(200);
    expect((await t.call('DELETE', `/api/v1/services/${other.id}?force=true`, { token })).status).toBe(204);
  });
});
