import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierSchemes, registrars, schemeQualifiers } from '../../db/schema/index.ts';
import {
  deleteServiceInstance,
  insertRegistrar,
  insertScheme,
  insertServiceInstance,
  SYSTEM_SERVICE_IDS,
  SYSTEM_TENANT_ID,
} from '../../test/rig/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
const gs1 = { name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org' };

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
});
afterAll(() => t.close());

const create = (body: object = gs1) => t.call('POST', '/api/v1/registrars', { token, body });

describe('POST /registrars', () => {
  it('creates a registrar owned by the caller and returns it with an empty schemes list', async () => {
    const res = await create();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...gs1, idrServiceInstanceId: null, isSystemDefault: false, schemes: [] });
    expect(res.body.id).toEqual(expect.any(String));
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    const [row] = await t.db.select().from(registrars).where(eq(registrars.id, res.body.id));
    expect(row!.tenantId).toBe(await t.tenantOf('tenantA'));
  });

  it('accepts the system default IDR instance and the tenant’s own IDR instance', async () => {
    const system = await create({ ...gs1, idrServiceInstanceId: SYSTEM_SERVICE_IDS.IDR });
    expect(system.status).toBe(201);
    expect(system.body.idrServiceInstanceId).toBe(SYSTEM_SERVICE_IDS.IDR);
    const own = await insertServiceInstance(t.db, await t.tenantOf('tenantA'), 'IDR');
    const mine = await create({ ...gs1, idrServiceInstanceId: own.id });
    expect(mine.status).toBe(201);
    expect(mine.body.idrServiceInstanceId).toBe(own.id);
  });

  it('ignores unrecognised keys', async () => {
    const res = await create({ ...gs1, colour: 'blue', tenantId: SYSTEM_TENANT_ID });
    expect(res.status).toBe(201);
    expect(res.body.colour).toBeUndefined();
    expect(res.body.isSystemDefault).toBe(false);
  });
});

describe('GET /registrars', () => {
  it('lists own and system registrars newest first in the list envelope', async () => {
    const fresh = await t.call('GET', '/api/v1/registrars', { token });
    expect(fresh.status).toBe(200);
    const system = await insertRegistrar(t.db);
    const newest = (await create({ ...gs1, name: 'Newest' })).body;
    const res = await t.call('GET', '/api/v1/registrars', { token });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({
      total: fresh.body.pagination.total + 2,
      limit: 20,
      offset: 0,
      hasMore: false,
    });
    expect(res.body.data[0]).toMatchObject({ id: newest.id, name: 'Newest' });
    expect(res.body.data[0].schemes).toBeUndefined();
    expect(res.body.data.find((r: { id: string }) => r.id === system.id)).toMatchObject({ isSystemDefault: true });
    const created = res.body.data.map((r: { createdAt: string }) => r.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('pages with limit and offset and reports hasMore', async () => {
    const all = (await t.call('GET', '/api/v1/registrars?limit=100', { token })).body;
    const total = all.pagination.total;
    expect(total).toBeGreaterThanOrEqual(3);
    const page = await t.call('GET', '/api/v1/registrars?limit=2&offset=1', { token });
    expect(page.body.data.map((r: { id: string }) => r.id)).toEqual(all.data.slice(1, 3).map((r: { id: string }) => r.id));
    expect(page.body.pagination).toEqual({ total, limit: 2, offset: 1, hasMore: 3 < total });
    const beyond = await t.call('GET', `/api/v1/registrars?offset=${total + 5}`, { token });
    expect(beyond.body).toEqual({ data: [], pagination: { total, limit: 20, offset: total + 5, hasMore: false } });
  });
});

describe('GET /registrars/{id}', () => {
  it('returns nested schemes with qualifiers in order, only those visible to the tenant', async () => {
    const tenantA = await t.tenantOf('tenantA');
    const registrar = (await create()).body;
    await insertScheme(t.db, {
      tenantId: tenantA,
      registrarId: registrar.id,
      qualifiers: [{ key: '21', order: 2 }, { key: '10', order: 1 }],
    });
    const res = await t.call('GET', `/api/v1/registrars/${registrar.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.schemes).toHaveLength(1);
    expect(res.body.schemes[0]).toMatchObject({ registrarId: registrar.id, primaryKey: '01', isSystemDefault: false });
    expect(res.body.schemes[0].qualifiers.map((q: { key: string }) => q.key)).toEqual(['10', '21']);
    expect(res.body.schemes[0].qualifiers[0]).toMatchObject({ description: 'Qualifier 10', order: 1 });

    // A system registrar shows system schemes to everyone, but another tenant's scheme to nobody else.
    await t.call('GET', '/api/v1/registrars', { token: await t.token('tenantB') });
    const system = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'Shared');
    await insertScheme(t.db, { tenantId: SYSTEM_TENANT_ID, registrarId: system.id, primaryKey: 'gln' });
    await insertScheme(t.db, { tenantId: await t.tenantOf('tenantB'), registrarId: system.id, primaryKey: 'b-only' });
    const shared = await t.call('GET', `/api/v1/registrars/${system.id}`, { token });
    expect(shared.body.isSystemDefault).toBe(true);
    expect(shared.body.schemes.map((s: { primaryKey: string }) => s.primaryKey)).toEqual(['gln']);
    expect(shared.body.schemes[0].isSystemDefault).toBe(true);
  });
});

describe('PATCH /registrars/{id}', () => {
  it('updates name, namespace and url and moves updatedAt', async () => {
    const registrar = (await create()).body;
    const res = await t.call('PATCH', `/api/v1/registrars/${registrar.id}`, {
      token,
      body: { name: 'GS1 Global', namespace: 'gs1-global', url: 'https://gs1.example.com/path' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'GS1 Global', namespace: 'gs1-global', url: 'https://gs1.example.com/path' });
    expect(res.body.schemes).toEqual([]);
    expect(res.body.updatedAt > registrar.updatedAt).toBe(true);
    expect(res.body.createdAt).toBe(registrar.createdAt);
  });

  it('sets and clears idrServiceInstanceId (null clears)', async () => {
    const registrar = (await create()).body;
    const set = await t.call('PATCH', `/api/v1/registrars/${registrar.id}`, {
      token,
      body: { idrServiceInstanceId: SYSTEM_SERVICE_IDS.IDR },
    });
    expect(set.status).toBe(200);
    expect(set.body.idrServiceInstanceId).toBe(SYSTEM_SERVICE_IDS.IDR);
    const cleared = await t.call('PATCH', `/api/v1/registrars/${registrar.id}`, {
      token,
      body: { idrServiceInstanceId: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ idrServiceInstanceId: null, name: 'GS1' });
  });

  it('a partial update leaves the other fields as they were', async () => {
    const registrar = (await create({ ...gs1, idrServiceInstanceId: SYSTEM_SERVICE_IDS.IDR })).body;
    const res = await t.call('PATCH', `/api/v1/registrars/${registrar.id}`, { token, body: { name: 'Renamed' } });
    expect(res.body).toMatchObject({ ...gs1, name: 'Renamed', idrServiceInstanceId: SYSTEM_SERVICE_IDS.IDR });
  });
});

describe('DELETE /registrars/{id}', () => {
  it('deletes the registrar with its schemes and qualifiers', async () => {
    const registrar = (await create()).body;
    const scheme = await insertScheme(t.db, {
      tenantId: await t.tenantOf('tenantA'),
      registrarId: registrar.id,
      qualifiers: [{ key: '10' }],
    });
    const res = await t.call('DELETE', `/api/v1/registrars/${registrar.id}`, { token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.call('GET', `/api/v1/registrars/${registrar.id}`, { token })).status).toBe(404);
    expect(await t.db.select().from(identifierSchemes).where(eq(identifierSchemes.id, scheme.id))).toEqual([]);
    expect(await t.db.select().from(schemeQualifiers).where(eq(schemeQualifiers.schemeId, scheme.id))).toEqual([]);
  });
});

describe('service instance deletion', () => {
  it('clears idrServiceInstanceId on registrars that referenced the instance', async () => {
    const own = await insertServiceInstance(t.db, await t.tenantOf('tenantA'), 'IDR');
    const registrar = (await create({ ...gs1, idrServiceInstanceId: own.id })).body;
    await deleteServiceInstance(t.db, own.id);
    const res = await t.call('GET', `/api/v1/registrars/${registrar.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.idrServiceInstanceId).toBeNull();
  });
});
