import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRegistrar, insertScheme, SYSTEM_TENANT_ID } from '../../test/rig/fixtures.ts';
import { countRows, createIdentifier, createScheme, GTIN } from '../../test/rig/scheme-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let tokenA: string;
let tokenB: string;
let schemeOfA: { id: string };
let identifierOfA: { id: string };
let originalOfA: unknown;

beforeAll(async () => {
  t = await startTestApp();
  [tokenA, tokenB] = await Promise.all([t.token('tenantA'), t.token('tenantB')]);
  schemeOfA = await createScheme(t, tokenA);
  identifierOfA = await createIdentifier(t, tokenA, schemeOfA.id);
  originalOfA = (await t.call('GET', `/api/v1/identifiers/${identifierOfA.id}`, { token: tokenA })).body;
});
afterAll(() => t.close());

const routes = () => [
  ['POST', '/api/v1/identifiers', { schemeId: schemeOfA.id, value: '00000000000000' }],
  ['GET', '/api/v1/identifiers', undefined],
  ['GET', `/api/v1/identifiers/${identifierOfA.id}`, undefined],
  ['PATCH', `/api/v1/identifiers/${identifierOfA.id}`, { value: '11111111111111' }],
  ['DELETE', `/api/v1/identifiers/${identifierOfA.id}`, undefined],
] as const;
const stillOriginal = async () =>
  expect((await t.call('GET', `/api/v1/identifiers/${identifierOfA.id}`, { token: tokenA })).body).toEqual(originalOfA);

describe('authentication on every identifier route', () => {
  it('401 with { error, message } without a token or cookie', async () => {
    const before = await countRows(t.db);
    for (const [method, path, body] of routes()) {
      const res = await t.call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorised', message: expect.stringContaining('Authentication required') });
    }
    expect(await countRows(t.db)).toEqual(before);
    await stillOriginal();
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
    await stillOriginal();
  });
});

describe('identifiers are strictly tenant-scoped', () => {
  it("another tenant's identifier is a 404 identical to a missing one on read, update and delete", async () => {
    const missing = await t.call('GET', '/api/v1/identifiers/no-such-identifier', { token: tokenB });
    for (const [method, path, body] of routes().slice(2)) {
      const res = await t.call(method, path, { token: tokenB, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    await stillOriginal();
  });

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
