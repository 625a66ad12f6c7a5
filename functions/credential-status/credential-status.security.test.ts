import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialStatusEntries } from '../../db/schema/index.ts';
import { startVcService, type VcService } from '../../vc-service/test/vc-harness.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import { providerBit, recordCredential, statusProviderFixture } from '../../test/rig/status-fixtures.ts';

let vc: VcService;
beforeAll(async () => {
  vc = await startVcService();
});
afterAll(() => vc.stop());

const ctx = securitySuite({
  name: '/credentials/{id}/status',
  app: { env: { FETCH_ALLOW_PRIVATE_URLS: 'true', CREDENTIAL_STATUS_MUTATION_ENABLED: 'true' } },
  setup: async (t, tokenA, tokenB) => {
    await t.call('GET', '/api/v1/services', { token: tokenA });
    await t.call('GET', '/api/v1/services', { token: tokenB });
    const tenantA = await t.tenantOf('tenantA');
    const tenantB = await t.tenantOf('tenantB');
    const providerA = await statusProviderFixture(t, tenantA, vc, 'status-security-a.example.com');
    const providerB = await statusProviderFixture(t, tenantB, vc, 'status-security-b.example.com');
    const credentialA = await recordCredential(t, { tenantId: tenantA, vc, instanceId: providerA.instance.id, did: providerA.did, purposes: ['revocation', 'suspension'] });
    const externalA = await recordCredential(t, { tenantId: tenantA, vc, instanceId: null, did: providerA.did, origin: 'EXTERNAL' });
    const credentialB = await recordCredential(t, { tenantId: tenantB, vc, instanceId: providerB.instance.id, did: providerB.did, purposes: ['suspension'] });
    return { credentialA, externalA, credentialB, providerA };
  },
  routes: (f) => [
    ['GET', `/api/v1/credentials/${f.credentialA.id}/status`],
    ['GET', `/api/v1/credentials/${f.credentialA.id}/status?fresh=true`],
    ['PUT', `/api/v1/credentials/${f.credentialA.id}/status/revocation`, { value: true }],
    ['PUT', `/api/v1/credentials/${f.credentialA.id}/status/suspension`, { value: true }],
    ['POST', `/api/v1/credentials/${f.credentialA.id}/status/suspension/reconcile`, {}],
  ],
  foreign: (f) => [
    ...[f.credentialA.id, f.externalA.id].flatMap((id) => [
      { method: 'GET', path: (x: string) => `/api/v1/credentials/${x}/status?fresh=true`, id },
      { method: 'PUT', path: (x: string) => `/api/v1/credentials/${x}/status/revocation`, body: () => ({ value: true }), headers: { 'if-version': '1' }, id },
      { method: 'PUT', path: (x: string) => `/api/v1/credentials/${x}/status/suspension`, body: () => ({ value: true }), headers: { 'if-version': '1' }, id },
      { method: 'POST', path: (x: string) => `/api/v1/credentials/${x}/status/suspension/reconcile`, body: () => ({}), headers: { 'if-version': '1' }, id },
    ]),
  ],
  snapshot: async (t, f, tokenA) => ({
    view: (await t.call('GET', `/api/v1/credentials/${f.credentialA.id}/status`, { token: tokenA })).body,
    bits: await Promise.all(f.credentialA.entries.map((e) => providerBit(vc, e))),
  }),
  count: async (db) => (await db.select({ n: count() }).from(credentialStatusEntries))[0]!.n,
});

describe('credential status across tenants', () => {
  it("tenant B's own status changes never touch tenant A's entries or bits", async () => {
    const { t, tokenA, tokenB, fixture } = ctx();
    const before = (await t.call('GET', `/api/v1/credentials/${fixture.credentialA.id}/status`, { token: tokenA })).body;
    const res = await t.call('PUT', `/api/v1/credentials/${fixture.credentialB.id}/status/suspension`, { token: tokenB, body: { value: true }, headers: { 'if-version': '1' } });
    expect(res.status).toBe(200);
    expect(await providerBit(vc, fixture.credentialB.entries[0]!)).toBe(true);
    expect((await t.call('GET', `/api/v1/credentials/${fixture.credentialA.id}/status`, { token: tokenA })).body).toEqual(before);
    expect(await Promise.all(fixture.credentialA.entries.map((e) => providerBit(vc, e)))).toEqual([false, false]);
  });

  it("the status view carries no key material or tenant id", async () => {
    const { t, tokenA, fixture } = ctx();
    const res = await t.call('GET', `/api/v1/credentials/${fixture.credentialA.id}/status?fresh=true`, { token: tokenA });
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/apiKey|tenantId|test-vc-service-key/);
  });
});
