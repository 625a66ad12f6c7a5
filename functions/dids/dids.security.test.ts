import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VcService } from '../../vc-service/test/vc-harness.ts';
import { didRow, insertVcInstance, useVcServiceAsSystemVc, vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { SYSTEM_SERVICE_IDS } from '../../test/rig/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let vc: VcService;
let tokenA: string;
let tokenB: string;
let didOfA: { id: string; did: string; name: string | null };

beforeAll(async () => {
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  vc = await useVcServiceAsSystemVc(t);
  [tokenA, tokenB] = await Promise.all([t.token('tenantA'), t.token('tenantB')]);
  didOfA = (await t.call('POST', '/api/v1/dids', { token: tokenA, body: { type: 'MANAGED', method: 'DID_WEB', alias: 'secure', name: 'Mine' } })).body;
});
afterAll(async () => {
  await t.close();
  await vc.stop();
});

const routes = () =>
  [
    ['POST', '/api/v1/dids', { type: 'MANAGED', method: 'DID_WEB', alias: 'intruder' }],
    ['POST', '/api/v1/dids/import', { did: 'did:web:intruder.example.com', method: 'DID_WEB', keyId: 'k', serviceInstanceId: 'x' }],
    ['GET', '/api/v1/dids', undefined],
    ['GET', `/api/v1/dids/${didOfA.id}`, undefined],
    ['PATCH', `/api/v1/dids/${didOfA.id}`, { name: 'Hijacked', isDefault: true }],
    ['DELETE', `/api/v1/dids/${didOfA.id}`, undefined],
    ['GET', `/api/v1/dids/${didOfA.id}/document`, undefined],
    ['POST', `/api/v1/dids/${didOfA.id}/verify`, undefined],
  ] as const;

describe('authentication on every DID route', () => {
  it('401 with { error, message } without a token or cookie, nothing created', async () => {
    const before = (await t.db.query.dids.findMany()).length;
    for (const [method, path, body] of routes()) {
      const res = await t.call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorised', message: expect.stringContaining('Authentication required') });
    }
    expect((await t.db.query.dids.findMany()).length).toBe(before);
  });

  it('401 for a token that does not verify', async () => {
    const forged = `${tokenA.slice(0, -4)}AAAA`;
    for (const [method, path, body] of routes()) {
      for (const token of ['not-a-jwt', forged]) {
        const res = await t.call(method, path, { body, token });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: 'Invalid or expired access token', code: 'UNAUTHENTICATED' });
      }
    }
  });
});

describe('tenant isolation', () => {
  it("another tenant's DID is a 404 identical to a missing one on every id route, and is left unchanged", async () => {
    const before = await didRow(t.db, didOfA.id);
    const missing = await t.call('GET', '/api/v1/dids/no-such-id', { token: tokenB });
    for (const [method, path, body] of routes().slice(3)) {
      const res = await t.call(method, path, { token: tokenB, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    expect(await didRow(t.db, didOfA.id)).toEqual(before);
    expect(await vcAdapterOf(vc).getDid(didOfA.did)).toBeDefined();
  });

  it("another tenant's DIDs never appear in its list", async () => {
    const list = await t.call('GET', '/api/v1/dids?limit=100', { token: tokenB });
    expect(list.body.data.map((d: { id: string }) => d.id)).not.toContain(didOfA.id);
  });

  it("another tenant's VC instance in a body is the same 404 as a missing one, and nothing is created", async () => {
    const instanceOfA = await insertVcInstance(t.db, t.services.secretBox, await t.tenantOf('tenantA'), vc);
    const before = (await t.db.query.dids.findMany()).length;
    const create = { type: 'MANAGED', method: 'DID_WEB', alias: 'steal' };
    const foreign = await t.call('POST', '/api/v1/dids', { token: tokenB, body: { ...create, serviceInstanceId: instanceOfA.id } });
    const missing = await t.call('POST', '/api/v1/dids', { token: tokenB, body: { ...create, serviceInstanceId: 'missing-id' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const imported = { did: 'did:web:steal.example.com', method: 'DID_WEB', keyId: 'k' };
    const foreignImport = await t.call('POST', '/api/v1/dids/import', { token: tokenB, body: { ...imported, serviceInstanceId: instanceOfA.id } });
    const missingImport = await t.call('POST', '/api/v1/dids/import', { token: tokenB, body: { ...imported, serviceInstanceId: 'missing-id' } });
    expect(foreignImport.status).toBe(404);
    expect(foreignImport.body).toEqual(missingImport.body);
    expect((await t.db.query.dids.findMany()).length).toBe(before);
  });

  it('filtering by the shared system VC instance shows nothing of another tenant', async () => {
    const list = await t.call('GET', `/api/v1/dids?serviceInstanceId=${SYSTEM_SERVICE_IDS.VC}&limit=100`, { token: tokenB });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: { id: string }) => d.id)).not.toContain(didOfA.id);
  });

  it('responses never carry a tenant id or the VC API key', async () => {
    const res = await t.call('GET', `/api/v1/dids/${didOfA.id}`, { token: tokenA });
    expect(res.body.tenantId).toBeUndefined();
    expect(res.text).not.toContain(vc.apiKey);
  });
});
