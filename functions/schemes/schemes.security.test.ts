import { beforeAll, describe, expect, it } from 'vitest';
import { insertRegistrar, insertScheme, insertServiceInstance, SYSTEM_TENANT_ID } from '../../test/rig/fixtures.ts';
import { countRows, createRegistrar, createScheme, gtinBody } from '../../test/rig/scheme-fixtures.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let tokenA: string;
let tokenB: string;
let schemeOfA: { id: string; registrarId: string };
let schemeOfB: { id: string };

const schemes = '/api/v1/schemes';
const context = securitySuite({
  name: '/schemes',
  setup: async (app, a, b) => ({ schemeOfA: await createScheme(app, a), schemeOfB: await createScheme(app, b) }),
  routes: (f) => [
    ['POST', schemes, gtinBody(f.schemeOfA.registrarId, { primaryKey: 'x' })],
    ['GET', schemes],
    ['GET', `${schemes}/${f.schemeOfA.id}`],
    ['PATCH', `${schemes}/${f.schemeOfA.id}`, { name: 'Hijacked', qualifiers: [] }],
    ['DELETE', `${schemes}/${f.schemeOfA.id}`],
  ],
  foreign: (f) => [
    { method: 'GET', path: (id) => `${schemes}/${id}`, id: f.schemeOfA.id },
    { method: 'PATCH', path: (id) => `${schemes}/${id}`, body: () => ({ name: 'Hijacked', qualifiers: [] }), id: f.schemeOfA.id },
    { method: 'DELETE', path: (id) => `${schemes}/${id}`, id: f.schemeOfA.id },
    { method: 'POST', path: () => schemes, body: (id) => gtinBody(id, { primaryKey: 'new' }), id: f.schemeOfA.registrarId },
  ],
  lists: (f) => [{ path: `${schemes}?limit=100`, hidden: [f.schemeOfA.id] }],
  snapshot: async (app, f, a) => (await app.call('GET', `${schemes}/${f.schemeOfA.id}`, { token: a })).body,
  count: countRows,
});
beforeAll(() => {
  ({ t, tokenA, tokenB } = context());
  ({ schemeOfA, schemeOfB } = context().fixture);
});

describe('tenant isolation', () => {
  it("lists and the registrarId filter never show another tenant's schemes", async () => {
    const listB = await t.call('GET', '/api/v1/schemes?limit=100', { token: tokenB });
    const idsB = listB.body.data.map((s: { id: string }) => s.id);
    expect(idsB).toContain(schemeOfB.id);
    expect(idsB).not.toContain(schemeOfA.id);
    const filtered = await t.call('GET', `/api/v1/schemes?registrarId=${schemeOfA.registrarId}`, { token: tokenB });
    expect(filtered.body.data).toEqual([]);
    expect(filtered.body.pagination.total).toBe(0);
  });

  it("a registrarId of another tenant in the body is the same 404 as a missing one; nothing written", async () => {
    const before = await countRows(t.db);
    const foreign = await t.call('POST', '/api/v1/schemes', { token: tokenB, body: gtinBody(schemeOfA.registrarId, { primaryKey: 'new' }) });
    const missing = await t.call('POST', '/api/v1/schemes', { token: tokenB, body: gtinBody('no-such-registrar') });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body).toEqual({ error: 'registrarId: registrar not found', code: 'NOT_FOUND' });
    expect(await countRows(t.db)).toEqual(before);
  });

  it('an idrServiceInstanceId of another tenant is the same 404 as a missing one, on create and update', async () => {
    const idrOfA = await insertServiceInstance(t.db, await t.tenantOf('tenantA'), 'IDR');
    const registrarOfB = await createRegistrar(t, tokenB);
    const before = await countRows(t.db);
    const create = (id: string) =>
      t.call('POST', '/api/v1/schemes', { token: tokenB, body: gtinBody(registrarOfB.id, { idrServiceInstanceId: id }) });
    const foreign = await create(idrOfA.id);
    const missing = await create('no-such-instance');
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(await countRows(t.db)).toEqual(before);

    const update = (id: string) =>
      t.call('PATCH', `/api/v1/schemes/${schemeOfB.id}`, { token: tokenB, body: { idrServiceInstanceId: id } });
    const foreignPatch = await update(idrOfA.id);
    expect(foreignPatch.status).toBe(404);
    expect(foreignPatch.body).toEqual((await update('no-such-instance')).body);
    const afterB = await t.call('GET', `/api/v1/schemes/${schemeOfB.id}`, { token: tokenB });
    expect(afterB.body.idrServiceInstanceId).toBeNull();
  });

  it("a tenant's scheme under a system registrar is invisible to other tenants, also nested in the registrar", async () => {
    const system = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'Shared');
    const mine = await createScheme(t, tokenA, { registrarId: system.id, primaryKey: 'a-only' });
    expect((await t.call('GET', `/api/v1/schemes/${mine.id}`, { token: tokenB })).status).toBe(404);
    const asB = await t.call('GET', `/api/v1/registrars/${system.id}`, { token: tokenB });
    expect(asB.body.schemes).toEqual([]);
    const asA = await t.call('GET', `/api/v1/registrars/${system.id}`, { token: tokenA });
    expect(asA.body.schemes.map((s: { id: string }) => s.id)).toEqual([mine.id]);
  });
});

describe('primaryKey uniqueness under a shared system registrar', () => {
  it("another tenant's scheme never blocks (or reveals itself through) a primaryKey; a system scheme's primaryKey does", async () => {
    const registrar = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'Shared Registrar');
    const body = (primaryKey: string) => gtinBody(registrar.id, { primaryKey, qualifiers: [] });
    expect((await t.call('POST', '/api/v1/schemes', { token: tokenA, body: body('77') })).status).toBe(201);
    expect((await t.call('POST', '/api/v1/schemes', { token: tokenB, body: body('77') })).status).toBe(201);
    const again = await t.call('POST', '/api/v1/schemes', { token: tokenB, body: body('77') });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SCHEME_PRIMARY_KEY_EXISTS');
    await insertScheme(t.db, { tenantId: SYSTEM_TENANT_ID, registrarId: registrar.id, primaryKey: '88' });
    const system = await t.call('POST', '/api/v1/schemes', { token: tokenA, body: body('88') });
    expect(system.status).toBe(409);
    expect(system.body.code).toBe('SCHEME_PRIMARY_KEY_EXISTS');
    const own = (await t.call('POST', '/api/v1/schemes', { token: tokenA, body: body('99') })).body;
    const renamed = await t.call('PATCH', `/api/v1/schemes/${own.id}`, { token: tokenA, body: { primaryKey: '88' } });
    expect(renamed.status).toBe(409);
  });
});

describe('system default schemes', () => {
  it('are readable by every tenant but cannot be changed or deleted (403), and stay as they were', async () => {
    const registrar = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'System GS1');
    const system = await insertScheme(t.db, {
      tenantId: SYSTEM_TENANT_ID,
      registrarId: registrar.id,
      qualifiers: [{ key: '10', order: 1 }],
    });
    const original = (await t.call('GET', `/api/v1/schemes/${system.id}`, { token: tokenA })).body;
    expect(original.isSystemDefault).toBe(true);
    for (const token of [tokenA, tokenB]) {
      const read = await t.call('GET', `/api/v1/schemes/${system.id}`, { token });
      expect(read.status).toBe(200);
      expect(read.body).toEqual(original);
      const listed = await t.call('GET', `/api/v1/schemes?registrarId=${registrar.id}`, { token });
      expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([system.id]);
      for (const body of [{ name: 'Mine now' }, { qualifiers: [] }, { idrServiceInstanceId: null }]) {
        const res = await t.call('PATCH', `/api/v1/schemes/${system.id}`, { token, body });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          error: 'Identifier scheme is a system default and cannot be changed',
          code: 'SYSTEM_DEFAULT_READ_ONLY',
        });
      }
      const del = await t.call('DELETE', `/api/v1/schemes/${system.id}`, { token });
      expect(del.status).toBe(403);
      expect(del.body.code).toBe('SYSTEM_DEFAULT_READ_ONLY');
    }
    expect((await t.call('GET', `/api/v1/schemes/${system.id}`, { token: tokenB })).body).toEqual(original);
  });
});
