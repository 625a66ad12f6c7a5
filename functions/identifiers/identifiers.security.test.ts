import { beforeAll, describe, expect, it } from 'vitest';
import { insertRegistrar, insertScheme, SYSTEM_TENANT_ID } from '../../test/rig/fixtures.ts';
import { countRows, createIdentifier, createScheme, GTIN } from '../../test/rig/scheme-fixtures.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let tokenA: string;
let tokenB: string;
let schemeOfA: { id: string };

const identifiersPath = '/api/v1/identifiers';
const context = securitySuite({
  name: '/identifiers',
  setup: async (app, a) => {
    const scheme = await createScheme(app, a);
    return { schemeOfA: scheme, identifierOfA: await createIdentifier(app, a, scheme.id) };
  },
  routes: (f) => [
    ['POST', identifiersPath, { schemeId: f.schemeOfA.id, value: '00000000000000' }],
    ['GET', identifiersPath],
    ['GET', `${identifiersPath}/${f.identifierOfA.id}`],
    ['PATCH', `${identifiersPath}/${f.identifierOfA.id}`, { value: '11111111111111' }],
    ['DELETE', `${identifiersPath}/${f.identifierOfA.id}`],
  ],
  foreign: (f) => [
    { method: 'GET', path: (id) => `${identifiersPath}/${id}`, id: f.identifierOfA.id },
    { method: 'PATCH', path: (id) => `${identifiersPath}/${id}`, body: () => ({ value: '11111111111111' }), id: f.identifierOfA.id },
    { method: 'DELETE', path: (id) => `${identifiersPath}/${id}`, id: f.identifierOfA.id },
    { method: 'POST', path: () => identifiersPath, body: (id) => ({ schemeId: id, value: GTIN }), id: f.schemeOfA.id },
  ],
  lists: (f) => [{ path: `${identifiersPath}?limit=100`, hidden: [f.identifierOfA.id] }],
  snapshot: async (app, f, a) => (await app.call('GET', `${identifiersPath}/${f.identifierOfA.id}`, { token: a })).body,
  count: countRows,
});
beforeAll(() => {
  ({ t, tokenA, tokenB } = context());
  ({ schemeOfA } = context().fixture);
});

describe('identifiers are strictly tenant-scoped', () => {
  it("a schemeId of another tenant's scheme in the body is the same 404 as a missing one; nothing written", async () => {
    const before = await countRows(t.db);
    const foreign = await t.call('POST', '/api/v1/identifiers', { token: tokenB, body: { schemeId: schemeOfA.id, value: GTIN } });
    const missing = await t.call('POST', '/api/v1/identifiers', { token: tokenB, body: { schemeId: 'no-such-scheme', value: GTIN } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(await countRows(t.db)).toEqual(before);
  });

  it("lists never show another tenant's identifiers, also under a shared system scheme", async () => {
    const registrar = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'System GS1');
    const system = await insertScheme(t.db, { tenantId: SYSTEM_TENANT_ID, registrarId: registrar.id });
    const ofA = await createIdentifier(t, tokenA, system.id, GTIN);
    const ofB = await createIdentifier(t, tokenB, system.id, GTIN);
    for (const [token, mine, theirs] of [
      [tokenA, ofA, ofB],
      [tokenB, ofB, ofA],
    ] as const) {
      const bySystemScheme = await t.call('GET', `/api/v1/identifiers?schemeId=${system.id}`, { token });
      expect(bySystemScheme.body.data.map((i: { id: string }) => i.id)).toEqual([mine.id]);
      const all = await t.call('GET', '/api/v1/identifiers?limit=100', { token });
      const ids = all.body.data.map((i: { id: string }) => i.id);
      expect(ids).toContain(mine.id);
      expect(ids).not.toContain(theirs.id);
      expect((await t.call('GET', `/api/v1/identifiers/${theirs.id}`, { token })).status).toBe(404);
    }
    const filteredByForeignScheme = await t.call('GET', `/api/v1/identifiers?schemeId=${schemeOfA.id}`, { token: tokenB });
    expect(filteredByForeignScheme.body.data).toEqual([]);
  });

  it("a system scheme's PATCH and DELETE stay refused even for a tenant with identifiers under it", async () => {
    const registrar = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'Another system registrar');
    const system = await insertScheme(t.db, { tenantId: SYSTEM_TENANT_ID, registrarId: registrar.id });
    await createIdentifier(t, tokenB, system.id, GTIN);
    expect((await t.call('DELETE', `/api/v1/schemes/${system.id}`, { token: tokenB })).status).toBe(403);
    expect((await t.call('PATCH', `/api/v1/schemes/${system.id}`, { token: tokenB, body: { validationPattern: '.*' } })).status).toBe(403);
  });
});
