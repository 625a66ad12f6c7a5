import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultDid } from '../../core/dids/default-did.ts';
import { createLogger } from '../../core/logging/logger.ts';
import type { VcService } from '../../vc-service/test/vc-harness.ts';
import { didRow, insertVcInstance, pointVcInstance, unreachableVc, useVcServiceAsSystemVc, vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { SYSTEM_SERVICE_IDS } from '../../test/rig/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let vc: VcService;
let token: string;
let host: string;
let defaultDid: string;

beforeAll(async () => {
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  vc = await useVcServiceAsSystemVc(t);
  host = new URL(vc.url).host.replace(':', '%3A');
  token = await t.token('tenantA');
  await t.call('GET', '/api/v1/dids', { token });
  defaultDid = await ensureDefaultDid({ db: t.db, box: t.services.secretBox, fetcher: t.services.fetcher, logger: t.services.logger }, 'default');
});
afterAll(async () => {
  await t.close();
  await vc.stop();
});

const create = (body: object, as = token) => t.call('POST', '/api/v1/dids', { token: as, body });
const held = (did: string) => vcAdapterOf(vc).getDid(did);
const heldCount = async () => (await vcAdapterOf(vc).listDids()).length;

describe('POST /dids', () => {
  it('MANAGED: the alias keeps letters, digits and hyphens under the VC host; ACTIVE; on the system VC instance by default', async () => {
    const res = await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'Acme Corp_2!-x', name: 'Acme' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      did: `did:web:${host}:AcmeCorp2-x`,
      type: 'MANAGED',
      method: 'DID_WEB',
      status: 'ACTIVE',
      alias: 'AcmeCorp2-x',
      name: 'Acme',
      description: null,
      isDefault: false,
      serviceInstanceId: SYSTEM_SERVICE_IDS.VC,
      isSystemDefault: false,
    });
    expect(res.body.keyId).toMatch(/^[0-9a-f]{64}$/);
    expect((await vc.agent('didManagerFind', { alias: `${host}:AcmeCorp2-x` })).body).toEqual([expect.objectContaining({ did: res.body.did, controllerKeyId: res.body.keyId })]);
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
  });

  it('SELF_MANAGED: the alias is the domain and path with dots and colons kept; UNVERIFIED', async () => {
    const res = await create({ type: 'SELF_MANAGED', method: 'DID_WEB', alias: 'acme.example.com:dids:main' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ did: 'did:web:acme.example.com:dids:main', type: 'SELF_MANAGED', status: 'UNVERIFIED', alias: 'acme.example.com:dids:main' });
  });

  it('SELF_MANAGED: a path under the system VC host is allowed', async () => {
    const res = await create({ type: 'SELF_MANAGED', method: 'DID_WEB', alias: `${new URL(vc.url).host}:tenant-a` });
    expect(res.status).toBe(201);
    expect(res.body.did).toBe(`did:web:${host}:tenant-a`);
  });

  it('uses the given instance, else the tenant primary VC instance', async () => {
    const tenantId = await t.tenantOf('tenantA');
    const other = await insertVcInstance(t.db, t.services.secretBox, tenantId, vc);
    const given = await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'given', serviceInstanceId: other.id });
    expect(given.body.serviceInstanceId).toBe(other.id);
    const primary = await insertVcInstance(t.db, t.services.secretBox, tenantId, vc, true);
    const defaulted = await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'primary' });
    expect(defaulted.status).toBe(201);
    expect(defaulted.body.serviceInstanceId).toBe(primary.id);
    await t.call('DELETE', `/api/v1/services/${primary.id}?force=true`, { token });
  });

  it('isDefault on create demotes the previous default', async () => {
    const first = await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'first-default', isDefault: true });
    const second = await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'second-default', isDefault: true });
    expect(second.body.isDefault).toBe(true);
    expect((await didRow(t.db, first.body.id))!.isDefault).toBe(false);
    await t.call('PATCH', `/api/v1/dids/${second.body.id}`, { token, body: { isDefault: false } });
  });
});

describe('POST /dids/import', () => {
  it('stores a SELF_MANAGED UNVERIFIED record without calling the VC service', async () => {
    const before = await heldCount();
    const res = await t.call('POST', '/api/v1/dids/import', {
      token,
      body: { did: 'did:web:imported.example.com', method: 'DID_WEB', keyId: 'key-1', serviceInstanceId: SYSTEM_SERVICE_IDS.VC, name: 'Imported' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ did: 'did:web:imported.example.com', type: 'SELF_MANAGED', status: 'UNVERIFIED', keyId: 'key-1', alias: null, name: 'Imported' });
    expect(await heldCount()).toBe(before);
    expect(await held('did:web:imported.example.com')).toBeUndefined();
  });
});

describe('GET /dids', () => {
  it("lists the tenant's DIDs and the system DEFAULT; another tenant sees only the DEFAULT", async () => {
    const mine = await t.call('GET', '/api/v1/dids?limit=100', { token });
    expect(mine.status).toBe(200);
    const dids = mine.body.data.map((d: { did: string }) => d.did);
    expect(dids).toContain(defaultDid);
    expect(dids).toContain('did:web:acme.example.com:dids:main');
    expect(mine.body.pagination).toMatchObject({ total: mine.body.data.length, limit: 100, offset: 0, hasMore: false });
    const other = await t.call('GET', '/api/v1/dids', { token: await t.token('tenantB') });
    expect(other.body.data.map((d: { did: string; type: string; isSystemDefault: boolean }) => [d.did, d.type, d.isSystemDefault])).toEqual([
      [defaultDid, 'DEFAULT', true],
    ]);
  });

  it('filters by type, status and serviceInstanceId', async () => {
    const byType = await t.call('GET', '/api/v1/dids?type=DEFAULT', { token });
    expect(byType.body.data.map((d: { did: string }) => d.did)).toEqual([defaultDid]);
    const byStatus = await t.call('GET', '/api/v1/dids?status=UNVERIFIED&limit=100', { token });
    expect(byStatus.body.data.length).toBeGreaterThan(0);
    expect(byStatus.body.data.every((d: { status: string }) => d.status === 'UNVERIFIED')).toBe(true);
    const byInstance = await t.call('GET', `/api/v1/dids?serviceInstanceId=${SYSTEM_SERVICE_IDS.VC}&limit=100`, { token });
    expect(byInstance.body.data.every((d: { serviceInstanceId: string }) => d.serviceInstanceId === SYSTEM_SERVICE_IDS.VC)).toBe(true);
    const none = await t.call('GET', '/api/v1/dids?serviceInstanceId=nothing', { token });
    expect(none.body).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false } });
  });
});

describe('GET, PATCH /dids/{id}', () => {
  it('reads one DID, and the DEFAULT with isSystemDefault', async () => {
    const created = (await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'read-me' })).body;
    expect((await t.call('GET', `/api/v1/dids/${created.id}`, { token })).body).toEqual(created);
    const list = await t.call('GET', '/api/v1/dids?type=DEFAULT', { token });
    const system = await t.call('GET', `/api/v1/dids/${list.body.data[0].id}`, { token });
    expect(system.body).toMatchObject({ did: defaultDid, type: 'DEFAULT', status: 'ACTIVE', isSystemDefault: true });
  });

  it('changes name and description, clears them with null, and keeps one default per tenant', async () => {
    const a = (await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'patch-a', description: 'old' })).body;
    const b = (await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'patch-b' })).body;
    const renamed = await t.call('PATCH', `/api/v1/dids/${a.id}`, { token, body: { name: 'New', description: null, isDefault: true } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'New', description: null, isDefault: true });
    const switched = await t.call('PATCH', `/api/v1/dids/${b.id}`, { token, body: { isDefault: true } });
    expect(switched.body.isDefault).toBe(true);
    expect((await t.call('GET', `/api/v1/dids/${a.id}`, { token })).body.isDefault).toBe(false);
    await t.call('PATCH', `/api/v1/dids/${b.id}`, { token, body: { isDefault: false } });
  });
});

describe('DELETE /dids/{id}', () => {
  it('removes the record and the upstream DID', async () => {
    const created = (await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'doomed' })).body;
    const res = await t.call('DELETE', `/api/v1/dids/${created.id}`, { token });
    expect(res.status).toBe(204);
    expect(await didRow(t.db, created.id)).toBeUndefined();
    expect(await held(created.did)).toBeUndefined();
    expect((await t.call('GET', `/api/v1/dids/${created.id}`, { token })).status).toBe(404);
  });

  it('proceeds when the upstream deletion fails, logging a warning', async () => {
    const own = await insertVcInstance(t.db, t.services.secretBox, await t.tenantOf('tenantA'), vc);
    const created = (await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'upstream-down', serviceInstanceId: own.id })).body;
    const down = await unreachableVc();
    await pointVcInstance(t, own.id, { ...down, apiKey: vc.apiKey });
    const lines: string[] = [];
    const logger = t.services.logger;
    t.services.logger = createLogger('warn', (line) => lines.push(line));
    try {
      expect((await t.call('DELETE', `/api/v1/dids/${created.id}`, { token })).status).toBe(204);
    } finally {
      t.services.logger = logger;
    }
    expect(await didRow(t.db, created.id)).toBeUndefined();
    const warning = lines.map((l) => JSON.parse(l)).find((l) => l.message.startsWith('Upstream DID deletion failed'));
    expect(warning).toMatchObject({ level: 'warn', did: created.did });
    expect(lines.join('\n')).not.toContain(vc.apiKey);
    expect(await held(created.did)).toBeDefined();
  });

  it('works after the instance was force-deleted: the service delete counts and clears the DID references', async () => {
    const own = await insertVcInstance(t.db, t.services.secretBox, await t.tenantOf('tenantA'), vc);
    const created = (await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'orphan', serviceInstanceId: own.id })).body;
    const blocked = await t.call('DELETE', `/api/v1/services/${own.id}`, { token });
    expect(blocked.status).toBe(409);
    expect(blocked.body.references).toEqual({ dids: 1, registrars: 0, schemes: 0 });
    expect((await t.call('DELETE', `/api/v1/services/${own.id}?force=true`, { token })).status).toBe(204);
    const orphan = await t.call('GET', `/api/v1/dids/${created.id}`, { token });
    expect(orphan.body.serviceInstanceId).toBeNull();
    expect((await t.call('DELETE', `/api/v1/dids/${created.id}`, { token })).status).toBe(204);
    expect(await didRow(t.db, created.id)).toBeUndefined();
  });
});

describe('GET /dids/{id}/document', () => {
  it('returns a MANAGED DID document from the VC service', async () => {
    const created = (await create({ type: 'MANAGED', method: 'DID_WEB', alias: 'doc' })).body;
    const res = await t.call('GET', `/api/v1/dids/${created.id}/document`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.did });
    expect(res.body.verificationMethod).toContainEqual(expect.objectContaining({ type: 'JsonWebKey', controller: created.did }));
    expect(created.did).toBe(`did:web:${host}:doc`);
    const hosted = await fetch(`${vc.url}/doc/did.json`);
    expect(hosted.status).toBe(200);
    expect(await hosted.json()).toEqual(res.body);
  });

  it('returns the DEFAULT DID document to any tenant', async () => {
    const other = await t.token('tenantB');
    const list = await t.call('GET', '/api/v1/dids?type=DEFAULT', { token: other });
    const res = await t.call('GET', `/api/v1/dids/${list.body.data[0].id}/document`, { token: other });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(defaultDid);
  });
});
