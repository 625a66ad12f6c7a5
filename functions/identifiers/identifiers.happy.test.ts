import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  facilities,
  facilitySecondaryIdentifiers,
  identifiers,
  organisations,
  organisationSecondaryIdentifiers,
  products,
  productSecondaryIdentifiers,
} from '../../db/schema/index.ts';
import { insertRegistrar, insertScheme, SYSTEM_TENANT_ID } from '../../test/rig/fixtures.ts';
import { createIdentifier, createScheme, GTIN } from '../../test/rig/scheme-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let scheme: { id: string; registrarId: string };

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  scheme = await createScheme(t, token);
});
afterAll(() => t.close());

const create = (body: object) => t.call('POST', '/api/v1/identifiers', { token, body });
const get = (id: string) => t.call('GET', `/api/v1/identifiers/${id}`, { token });

describe('POST /identifiers', () => {
  it('creates an identifier of the caller, returned with its scheme, registrar and ordered qualifiers', async () => {
    const res = await create({ schemeId: scheme.id, value: GTIN });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      schemeId: scheme.id,
      value: GTIN,
      scheme: {
        id: scheme.id,
        primaryKey: '01',
        isSystemDefault: false,
        registrar: { id: scheme.registrarId, name: 'GS1' },
      },
    });
    expect(res.body.isSystemDefault).toBeUndefined();
    expect(res.body.scheme.qualifiers.map((q: { key: string }) => q.key)).toEqual(['10', '21']);
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    const [row] = await t.db.select().from(identifiers).where(eq(identifiers.id, res.body.id));
    expect(row!.tenantId).toBe(await t.tenantOf('tenantA'));
  });

  it('creates identifiers of the caller under a system scheme; each tenant may hold the same value', async () => {
    const registrar = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'System GS1');
    const system = await insertScheme(t.db, { tenantId: SYSTEM_TENANT_ID, registrarId: registrar.id });
    const mine = await create({ schemeId: system.id, value: GTIN });
    expect(mine.status).toBe(201);
    expect(mine.body.scheme).toMatchObject({ id: system.id, isSystemDefault: true, registrar: { isSystemDefault: true } });
    const theirs = await t.call('POST', '/api/v1/identifiers', {
      token: await t.token('tenantB'),
      body: { schemeId: system.id, value: GTIN },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('allows the same value under different schemes, and ignores unrecognised keys', async () => {
    const other = await createScheme(t, token);
    const res = await create({ schemeId: other.id, value: GTIN, tenantId: SYSTEM_TENANT_ID, id: 'chosen' });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe('chosen');
  });

  it('applies the pattern as written (an unanchored pattern matches anywhere in the value)', async () => {
    const loose = await createScheme(t, token, { validationPattern: '\\d', qualifiers: [] });
    expect((await create({ schemeId: loose.id, value: 'ABC-1' })).status).toBe(201);
    const spaces = await createScheme(t, token, { validationPattern: ' ', qualifiers: [] });
    expect((await create({ schemeId: spaces.id, value: 'ACME Pty Ltd' })).status).toBe(201);
  });
});

describe('GET /identifiers', () => {
  it("lists the tenant's identifiers newest first, filters by schemeId and pages", async () => {
    const own = await createScheme(t, token);
    const a = await createIdentifier(t, token, own.id, '00000000000001');
    const b = await createIdentifier(t, token, own.id, '00000000000002');
    const c = await createIdentifier(t, token, own.id, '00000000000003');
    const filtered = await t.call('GET', `/api/v1/identifiers?schemeId=${own.id}`, { token });
    expect(filtered.status).toBe(200);
    expect(filtered.body).toEqual({
      data: [c, b, a].map(({ id, value }) => ({
        id,
        schemeId: own.id,
        value,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      })),
      pagination: { total: 3, limit: 20, offset: 0, hasMore: false },
    });
    const page = await t.call('GET', `/api/v1/identifiers?schemeId=${own.id}&limit=2&offset=2`, { token });
    expect(page.body.data.map((i: { id: string }) => i.id)).toEqual([a.id]);
    expect(page.body.pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false });
    const all = await t.call('GET', '/api/v1/identifiers?limit=100', { token });
    expect(all.body.pagination.total).toBeGreaterThan(3);
    expect(all.body.data[0].id).toBe(c.id);
    const created = all.body.data.map((i: { createdAt: string }) => i.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
  });
});

describe('GET /identifiers/{id}', () => {
  it('returns the full scheme with registrar and qualifiers', async () => {
    const identifier = await createIdentifier(t, token, scheme.id, '11111111111111');
    const res = await get(identifier.id);
    expect(res.status).toBe(200);
    expect(res.body.scheme).toEqual((await t.call('GET', `/api/v1/schemes/${scheme.id}`, { token })).body);
  });
});

describe('PATCH /identifiers/{id}', () => {
  it('changes the value, re-validated, and moves updatedAt; the same value again is fine', async () => {
    const identifier = await createIdentifier(t, token, scheme.id, '22222222222222');
    const before = (await get(identifier.id)).body;
    const res = await t.call('PATCH', `/api/v1/identifiers/${identifier.id}`, { token, body: { value: '33333333333333' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: identifier.id, value: '33333333333333', schemeId: scheme.id });
    expect(res.body.scheme.id).toBe(scheme.id);
    expect(res.body.updatedAt > before.updatedAt).toBe(true);
    const same = await t.call('PATCH', `/api/v1/identifiers/${identifier.id}`, { token, body: { value: '33333333333333' } });
    expect(same.status).toBe(200);
  });

  it('ignores an attempt to move the identifier to another scheme', async () => {
    const identifier = await createIdentifier(t, token, scheme.id, '44444444444444');
    const other = await createScheme(t, token);
    const res = await t.call('PATCH', `/api/v1/identifiers/${identifier.id}`, {
      token,
      body: { value: '55555555555555', schemeId: other.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.schemeId).toBe(scheme.id);
  });
});

describe('DELETE /identifiers/{id}', () => {
  it('deletes the identifier; records that used it remain, without it as primary or secondary identifier', async () => {
    const tenantId = await t.tenantOf('tenantA');
    const primary = await createIdentifier(t, token, scheme.id, '66666666666666');
    const secondary = await createIdentifier(t, token, scheme.id, '77777777777777');
    const [organisation] = await t.db
      .insert(organisations)
      .values({ tenantId, name: 'Acme', primaryIdentifierId: primary.id })
      .returning();
    const [facility] = await t.db
      .insert(facilities)
      .values({ tenantId, name: 'Plant', primaryIdentifierId: secondary.id })
      .returning();
    const [product] = await t.db
      .insert(products)
      .values({ tenantId, name: 'Widget', level: 'MODEL' })
      .returning();
    await t.db.insert(organisationSecondaryIdentifiers).values({ ownerId: organisation!.id, identifierId: secondary.id });
    await t.db.insert(facilitySecondaryIdentifiers).values({ ownerId: facility!.id, identifierId: primary.id });
    await t.db.insert(productSecondaryIdentifiers).values([
      { ownerId: product!.id, identifierId: primary.id },
      { ownerId: product!.id, identifierId: secondary.id },
    ]);

    const res = await t.call('DELETE', `/api/v1/identifiers/${primary.id}`, { token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await get(primary.id)).status).toBe(404);

    const [org] = await t.db.select().from(organisations).where(eq(organisations.id, organisation!.id));
    expect(org!.primaryIdentifierId).toBeNull();
    expect(
      (await t.db.select().from(organisationSecondaryIdentifiers).where(eq(organisationSecondaryIdentifiers.ownerId, org!.id))).map(
        (l) => l.identifierId,
      ),
    ).toEqual([secondary.id]);
    const [fac] = await t.db.select().from(facilities).where(eq(facilities.id, facility!.id));
    expect(fac!.primaryIdentifierId).toBe(secondary.id);
    expect(await t.db.select().from(facilitySecondaryIdentifiers).where(eq(facilitySecondaryIdentifiers.ownerId, fac!.id))).toEqual([]);
    expect(
      (await t.db.select().from(productSecondaryIdentifiers).where(eq(productSecondaryIdentifiers.ownerId, product!.id))).map(
        (l) => l.identifierId,
      ),
    ).toEqual([secondary.id]);
    expect((await get(secondary.id)).status).toBe(200);
  });
});
