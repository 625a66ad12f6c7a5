import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkCreate, countMasterData, createIdentifiers } from './master-data-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

export interface MasterDataSecurityCase {
  /** Path segment under /api/v1, e.g. `organisations`. */
  path: string;
  /** Body of the missing-record 404, e.g. `Organisation not found`. */
  notFound: string;
  /** A valid create item (besides identifier references). */
  item: Record<string, unknown>;
  /** A valid PATCH body. */
  patch: Record<string, unknown>;
  /** Fields of a create item that reference another tenant-owned record, with the kind they name. */
  references: { field: string; path: string; item: Record<string, unknown>; what: string }[];
}

/**
 * The security paths every master-data group shares: no token and bad token on every route (401,
 * nothing written), and another tenant's ids (404 identical to a missing one, on reads, writes and
 * references inside bodies; the record unchanged).
 */
export const masterDataSecuritySuite = (c: MasterDataSecurityCase) => {
  let t: TestApp;
  let tokenA: string;
  let tokenB: string;
  let recordOfA: { id: string };
  let identifierOfA: { id: string; value: string };
  let originalOfA: unknown;
  const base = `/api/v1/${c.path}`;
  const get = () => t.call('GET', `${base}/${recordOfA.id}`, { token: tokenA });

  beforeAll(async () => {
    t = await startTestApp();
    [tokenA, tokenB] = await Promise.all([t.token('tenantA'), t.token('tenantB')]);
    identifierOfA = (await createIdentifiers(t, tokenA, 1, 3131))[0]!;
    recordOfA = (await bulkCreate(t, tokenA, c.path, [{ ...c.item, primaryIdentifierId: identifierOfA.id }]))[0]!;
    originalOfA = (await get()).body;
  });
  afterAll(() => t.close());

  const routes = () =>
    [
      ['POST', base, [c.item]],
      ['GET', base, undefined],
      ['GET', `${base}/${recordOfA.id}`, undefined],
      ['PATCH', `${base}/${recordOfA.id}`, c.patch],
      ['DELETE', `${base}/${recordOfA.id}`, undefined],
    ] as const;

  describe(`authentication on every /${c.path} route`, () => {
    it('401 without a token or cookie; nothing written', async () => {
      const before = await countMasterData(t.db);
      for (const [method, path, body] of routes()) {
        const res = await t.call(method, path, { body });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: 'Unauthorised', message: expect.stringContaining('Authentication required') });
      }
      expect(await countMasterData(t.db)).toEqual(before);
      expect((await get()).body).toEqual(originalOfA);
    });

    it('401 with a malformed token', async () => {
      for (const [method, path, body] of routes()) {
        const res = await t.call(method, path, { body, token: 'not.a.jwt' });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: 'Invalid or expired access token', code: 'UNAUTHENTICATED' });
      }
      expect((await get()).body).toEqual(originalOfA);
    });
  });

  describe(`tenancy on /${c.path}`, () => {
    it("another tenant's record is a 404 identical to a missing one on get, patch and delete; unchanged", async () => {
      for (const [method, body] of [['GET'], ['PATCH', c.patch], ['DELETE']] as const) {
        const foreign = await t.call(method, `${base}/${recordOfA.id}`, { token: tokenB, body });
        const missing = await t.call(method, `${base}/no-such-record`, { token: tokenB, body });
        expect(foreign.status, method).toBe(404);
        expect(foreign.body).toEqual(missing.body);
        expect(foreign.body).toEqual({ error: c.notFound, code: 'NOT_FOUND' });
      }
      expect((await get()).body).toEqual(originalOfA);
    });

    it("lists and searches never show another tenant's records", async () => {
      const list = await t.call('GET', base, { token: tokenB });
      expect(list.status).toBe(200);
      expect(list.body.data.map((r: { id: string }) => r.id)).not.toContain(recordOfA.id);
      const search = await t.call('GET', `${base}?search=${identifierOfA.value}`, { token: tokenB });
      expect(search.body.data).toEqual([]);
    });

    it("another tenant's identifier referenced in a body is a 404 identical to a missing one; nothing written", async () => {
      const before = await countMasterData(t.db);
      for (const field of ['primaryIdentifierId', 'secondaryIdentifierIds'] as const) {
        const value = (id: string) => (field === 'primaryIdentifierId' ? id : [id]);
        const suffix = field === 'primaryIdentifierId' ? '' : '[0]';
        const foreign = await t.call('POST', base, { token: tokenB, body: [{ ...c.item, [field]: value(identifierOfA.id) }] });
        const missing = await t.call('POST', base, { token: tokenB, body: [{ ...c.item, [field]: value('no-such-id') }] });
        expect(foreign.status).toBe(404);
        expect(foreign.body).toEqual(missing.body);
        expect(foreign.body.error).toBe(`[0].${field}${suffix}: identifier not found`);
      }
      expect(await countMasterData(t.db)).toEqual(before);
    });

    it("another tenant's records referenced in create and patch bodies are 404s naming the field; nothing written", async () => {
      const [ownOfB] = await bulkCreate(t, tokenB, c.path, [c.item]);
      const originalOfB = (await t.call('GET', `${base}/${ownOfB!.id}`, { token: tokenB })).body;
      for (const ref of c.references) {
        const [referenced] = await bulkCreate(t, tokenA, ref.path, [ref.item]);
        const before = await countMasterData(t.db);
        const created = await t.call('POST', base, { token: tokenB, body: [{ ...c.item, [ref.field]: referenced!.id }] });
        expect(created.status, ref.field).toBe(404);
        expect(created.body.error).toBe(`[0].${ref.field}: ${ref.what} not found`);
        const patched = await t.call('PATCH', `${base}/${ownOfB!.id}`, { token: tokenB, body: { [ref.field]: referenced!.id } });
        expect(patched.status, ref.field).toBe(404);
        expect(patched.body.error).toBe(`${ref.field}: ${ref.what} not found`);
        expect(await countMasterData(t.db)).toEqual(before);
      }
      expect((await t.call('GET', `${base}/${ownOfB!.id}`, { token: tokenB })).body).toEqual(originalOfB);
    });
  });
};
