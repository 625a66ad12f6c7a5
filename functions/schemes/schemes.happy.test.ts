import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierSchemes } from '../../db/schema/index.ts';
import {
  insertIdentifier,
  insertRegistrar,
  insertScheme,
  insertServiceInstance,
  SYSTEM_SERVICE_IDS,
  SYSTEM_TENANT_ID,
} from '../../test/rig/fixtures.ts';
import { createRegistrar, createScheme, GTIN, gtinBody, qualifiersOf } from '../../test/rig/scheme-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
});
afterAll(() => t.close());

const create = (body: object) => t.call('POST', '/api/v1/schemes', { token, body });
const patch = (id: string, body: object) => t.call('PATCH', `/api/v1/schemes/${id}`, { token, body });
const get = (id: string) => t.call('GET', `/api/v1/schemes/${id}`, { token });
const keys = (scheme: { qualifiers: { key: string }[] }) => scheme.qualifiers.map((q) => q.key);

describe('POST /schemes', () => {
  it('creates a scheme of the caller with its qualifiers, returned with the registrar and ordered qualifiers', async () => {
    const registrar = await createRegistrar(t, token);
    const res = await create(gtinBody(registrar.id));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      registrarId: registrar.id,
      name: 'Global Trade Item Number',
      primaryKey: '01',
      validationPattern: '^\\d{14}$',
      linkTemplate: '/{primaryKey}/{value}',
      idrServiceInstanceId: null,
      isSystemDefault: false,
      registrar: { id: registrar.id, name: 'GS1', namespace: 'gs1', isSystemDefault: false },
    });
    expect(res.body.qualifiers).toEqual([
      { id: expect.any(String), key: '10', description: 'Batch or lot number', validationPattern: '^[A-Za-z0-9]{1,20}$', order: 1 },
      { id: expect.any(String), key: '21', description: 'Serial number', validationPattern: '^[A-Za-z0-9]{1,20}$', order: 2 },
    ]);
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    const [row] = await t.db.select().from(identifierSchemes).where(eq(identifierSchemes.id, res.body.id));
    expect(row!.tenantId).toBe(await t.tenantOf('tenantA'));
  });

  it('qualifiers are optional; order defaults to 0 and accepts 0 and 2147483647', async () => {
    const registrar = await createRegistrar(t, token);
    const bare = await create({ ...gtinBody(registrar.id), qualifiers: undefined });
    expect(bare.status).toBe(201);
    expect(bare.body.qualifiers).toEqual([]);
    const bounds = await create(
      gtinBody(registrar.id, {
        primaryKey: '02',
        qualifiers: [
          { key: 'last', description: 'Largest order', validationPattern: '.*', order: 2147483647 },
          { key: 'zero', description: 'Explicit zero', validationPattern: '.*', order: 0 },
          { key: 'default', description: 'No order', validationPattern: '.*' },
        ],
      }),
    );
    expect(bounds.status).toBe(201);
    expect(bounds.body.qualifiers.map((q: { key: string; order: number }) => [q.key, q.order])).toEqual([
      ['default', 0],
      ['zero', 0],
      ['last', 2147483647],
    ]);
  });

  it('accepts a whitespace-only validationPattern on the scheme and on a qualifier', async () => {
    const registrar = await createRegistrar(t, token);
    const res = await create(
      gtinBody(registrar.id, {
        validationPattern: '   ',
        qualifiers: [{ key: '10', description: 'Lot', validationPattern: ' \t ' }],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.validationPattern).toBe('   ');
    expect(res.body.qualifiers[0].validationPattern).toBe(' \t ');
  });

  it('creates a scheme of the caller under a system registrar', async () => {
    const system = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'Shared GS1');
    const res = await create(gtinBody(system.id, { primaryKey: 'tenant-a-key' }));
    expect(res.status).toBe(201);
    expect(res.body.isSystemDefault).toBe(false);
    expect(res.body.registrar).toMatchObject({ id: system.id, isSystemDefault: true });
    const [row] = await t.db.select().from(identifierSchemes).where(eq(identifierSchemes.id, res.body.id));
    expect(row!.tenantId).toBe(await t.tenantOf('tenantA'));
  });

  it('accepts the system IDR instance and the tenant’s own IDR instance', async () => {
    const registrar = await createRegistrar(t, token);
    const system = await create(gtinBody(registrar.id, { idrServiceInstanceId: SYSTEM_SERVICE_IDS.IDR }));
    expect(system.status).toBe(201);
    expect(system.body.idrServiceInstanceId).toBe(SYSTEM_SERVICE_IDS.IDR);
    const own = await insertServiceInstance(t.db, await t.tenantOf('tenantA'), 'IDR');
    const mine = await create(gtinBody(registrar.id, { primaryKey: '02', idrServiceInstanceId: own.id }));
    expect(mine.status).toBe(201);
    expect(mine.body.idrServiceInstanceId).toBe(own.id);
  });

  it('allows the same primaryKey under different registrars, and ignores unrecognised keys', async () => {
    const first = await createScheme(t, token);
    const second = await createScheme(t, token, { colour: 'blue', tenantId: SYSTEM_TENANT_ID, id: 'chosen' });
    expect(second.registrarId).not.toBe(first.registrarId);
    const res = await get(second.id);
    expect(res.body.isSystemDefault).toBe(false);
    expect(res.body.colour).toBeUndefined();
    expect(res.body.id).not.toBe('chosen');
  });
});

describe('GET /schemes', () => {
  it("lists the tenant's and system schemes newest first, with qualifiers and without the registrar", async () => {
    const systemRegistrar = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'Listed');
    const system = await insertScheme(t.db, {
      tenantId: SYSTEM_TENANT_ID,
      registrarId: systemRegistrar.id,
      primaryKey: 'sys',
      qualifiers: [{ key: '10', order: 1 }],
    });
    const newest = await createScheme(t, token);
    const res = await t.call('GET', '/api/v1/schemes?limit=100', { token });
    expect(res.status).toBe(200);
    expect(res.body.data[0].id).toBe(newest.id);
    expect(res.body.data[0].registrar).toBeUndefined();
    expect(keys(res.body.data[0])).toEqual(['10', '21']);
    const listedSystem = res.body.data.find((s: { id: string }) => s.id === system.id);
    expect(listedSystem).toMatchObject({ isSystemDefault: true, primaryKey: 'sys' });
    expect(keys(listedSystem)).toEqual(['10']);
    const created = res.body.data.map((s: { createdAt: string }) => s.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    expect(res.body.pagination).toMatchObject({ total: res.body.data.length, limit: 100, offset: 0, hasMore: false });
  });

  it('filters by registrarId and pages with limit and offset', async () => {
    const registrar = await createRegistrar(t, token);
    const a = await createScheme(t, token, { registrarId: registrar.id, primaryKey: 'a' });
    const b = await createScheme(t, token, { registrarId: registrar.id, primaryKey: 'b' });
    const c = await createScheme(t, token, { registrarId: registrar.id, primaryKey: 'c' });
    const all = await t.call('GET', `/api/v1/schemes?registrarId=${registrar.id}`, { token });
    expect(all.body.data.map((s: { id: string }) => s.id)).toEqual([c.id, b.id, a.id]);
    expect(all.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
    const page = await t.call('GET', `/api/v1/schemes?registrarId=${registrar.id}&limit=1&offset=1`, { token });
    expect(page.body.data.map((s: { id: string }) => s.id)).toEqual([b.id]);
    expect(page.body.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
    const none = await t.call('GET', '/api/v1/schemes?registrarId=no-such-registrar', { token });
    expect(none.body).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false } });
  });
});

describe('GET /schemes/{id}', () => {
  it('returns an own scheme and a system scheme with registrar and qualifiers', async () => {
    const own = await createScheme(t, token);
    const res = await get(own.id);
    expect(res.status).toBe(200);
    expect(res.body.registrar.id).toBe(own.registrarId);
    expect(keys(res.body)).toEqual(['10', '21']);
    const systemRegistrar = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'Readable');
    const system = await insertScheme(t.db, { tenantId: SYSTEM_TENANT_ID, registrarId: systemRegistrar.id });
    const shared = await get(system.id);
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ isSystemDefault: true, registrar: { id: systemRegistrar.id, isSystemDefault: true } });
  });

  it('is nested in GET /registrars/{id}', async () => {
    const scheme = await createScheme(t, token);
    const res = await t.call('GET', `/api/v1/registrars/${scheme.registrarId}`, { token });
    expect(res.body.schemes.map((s: { id: string }) => s.id)).toEqual([scheme.id]);
    expect(keys(res.body.schemes[0])).toEqual(['10', '21']);
  });
});

describe('PATCH /schemes/{id}', () => {
  it('updates name, primaryKey, validationPattern and linkTemplate, and moves updatedAt', async () => {
    const scheme = await createScheme(t, token);
    const before = (await get(scheme.id)).body;
    const res = await patch(scheme.id, {
      name: 'GTIN-14',
      primaryKey: 'gtin',
      validationPattern: '^\\d{8,14}$',
      linkTemplate: '/01/{value}',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'GTIN-14', primaryKey: 'gtin', validationPattern: '^\\d{8,14}$', linkTemplate: '/01/{value}' });
    expect(res.body.registrar.id).toBe(scheme.registrarId);
    expect(res.body.qualifiers).toEqual(before.qualifiers);
    expect(res.body.updatedAt > before.updatedAt).toBe(true);
    expect(res.body.createdAt).toBe(before.createdAt);
  });

  it('replaces the whole qualifier set, and [] removes every qualifier', async () => {
    const scheme = await createScheme(t, token);
    const res = await patch(scheme.id, {
      qualifiers: [{ key: '22', description: 'Consumer product variant', validationPattern: '^.{1,20}$', order: 5 }],
    });
    expect(res.status).toBe(200);
    expect(res.body.qualifiers).toEqual([
      { id: expect.any(String), key: '22', description: 'Consumer product variant', validationPattern: '^.{1,20}$', order: 5 },
    ]);
    expect((await qualifiersOf(t.db, scheme.id)).map((q) => q.key)).toEqual(['22']);
    const cleared = await patch(scheme.id, { qualifiers: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.qualifiers).toEqual([]);
    expect(await qualifiersOf(t.db, scheme.id)).toEqual([]);
  });

  it('may resubmit the existing qualifier keys and the scheme’s own primaryKey', async () => {
    const scheme = await createScheme(t, token);
    const res = await patch(scheme.id, { primaryKey: '01', qualifiers: gtinBody('x').qualifiers });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(['10', '21']);
  });

  it('sets and clears idrServiceInstanceId (null clears), leaving other fields alone', async () => {
    const scheme = await createScheme(t, token);
    const set = await patch(scheme.id, { idrServiceInstanceId: SYSTEM_SERVICE_IDS.IDR });
    expect(set.status).toBe(200);
    expect(set.body.idrServiceInstanceId).toBe(SYSTEM_SERVICE_IDS.IDR);
    const cleared = await patch(scheme.id, { idrServiceInstanceId: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ idrServiceInstanceId: null, name: 'Global Trade Item Number', primaryKey: '01' });
    expect(keys(cleared.body)).toEqual(['10', '21']);
  });

  it('a new validationPattern applies from then on; existing identifiers stay', async () => {
    const scheme = await createScheme(t, token);
    const existing = await insertIdentifier(t.db, await t.tenantOf('tenantA'), scheme.id, GTIN);
    const res = await patch(scheme.id, { validationPattern: '^\\d{13}$' });
    expect(res.status).toBe(200);
    const stillThere = await t.call('GET', `/api/v1/identifiers/${existing.id}`, { token });
    expect(stillThere.body.value).toBe(GTIN);
    const refused = await t.call('POST', '/api/v1/identifiers', { token, body: { schemeId: scheme.id, value: '09520123456789' } });
    expect(refused.status).toBe(400);
  });
});

describe('DELETE /schemes/{id}', () => {
  it('deletes an unused scheme with its qualifiers', async () => {
    const scheme = await createScheme(t, token);
    const res = await t.call('DELETE', `/api/v1/schemes/${scheme.id}`, { token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await get(scheme.id)).status).toBe(404);
    expect(await qualifiersOf(t.db, scheme.id)).toEqual([]);
    expect((await t.call('GET', `/api/v1/registrars/${scheme.registrarId}`, { token })).body.schemes).toEqual([]);
  });

  it('deletes a scheme once its last identifier is gone', async () => {
    const scheme = await createScheme(t, token);
    const identifier = await t.call('POST', '/api/v1/identifiers', { token, body: { schemeId: scheme.id, value: GTIN } });
    expect((await t.call('DELETE', `/api/v1/schemes/${scheme.id}`, { token })).status).toBe(409);
    expect((await t.call('DELETE', `/api/v1/identifiers/${identifier.body.id}`, { token })).status).toBe(204);
    expect((await t.call('DELETE', `/api/v1/schemes/${scheme.id}`, { token })).status).toBe(204);
  });
});
