import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkCreate, countMasterData, createIdentifiers } from '../../test/rig/master-data-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let model: { id: string };
let batch: { id: string };
let item: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  model = (await bulkCreate(t, token, 'products', [{ name: 'Model', level: 'MODEL' }]))[0]!;
  batch = (await bulkCreate(t, token, 'products', [{ name: 'Batch', level: 'BATCH', parentId: model.id }]))[0]!;
  item = (await bulkCreate(t, token, 'products', [{ name: 'Item', level: 'ITEM', parentId: batch.id }]))[0]!;
});
afterAll(() => t.close());

const rejects = async (body: unknown, status: number, error: RegExp) => {
  const before = await countMasterData(t.db);
  const res = await t.call('POST', '/api/v1/products', { token, body });
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.body.error).toMatch(error);
  expect(await countMasterData(t.db)).toEqual(before);
  return res;
};

describe('POST /products hierarchy (one violation rejects the whole request)', () => {
  it.each<[string, { level: string; parentId?: string }, RegExp]>([
    ['MODEL with a parent', { level: 'MODEL', parentId: 'model' }, /a MODEL product must not have a parent/],
    ['BATCH without a parent', { level: 'BATCH' }, /a BATCH product needs a MODEL parent/],
    ['BATCH under a BATCH', { level: 'BATCH', parentId: 'batch' }, /a BATCH product needs a MODEL parent/],
    ['BATCH under an ITEM', { level: 'BATCH', parentId: 'item' }, /a BATCH product needs a MODEL parent/],
    ['ITEM under a MODEL', { level: 'ITEM', parentId: 'model' }, /an ITEM product may only have a BATCH parent/],
    ['ITEM under an ITEM (depth four)', { level: 'ITEM', parentId: 'item' }, /an ITEM product may only have a BATCH parent/],
  ])('%s is a 400 naming the item; nothing written', async (_, shape, error) => {
    const parents: Record<string, string> = { model: model.id, batch: batch.id, item: item.id };
    const bad = { name: 'Bad', ...shape, ...(shape.parentId ? { parentId: parents[shape.parentId] } : {}) };
    const res = await rejects([{ name: 'Fine', level: 'MODEL' }, bad], 400, error);
    expect(res.body.error).toMatch(/^\[1\]\.parentId: /);
  });
});

describe('POST /products field rules', () => {
  it('400 for missing or unknown level, whitespace-only name, explicit null on optional fields', async () => {
    await rejects([{ name: 'No level' }], 400, /^\[0\]\.level: is required/);
    await rejects([{ name: 'Odd', level: 'PALLET' }], 400, /^\[0\]\.level: must be one of MODEL, BATCH, ITEM/);
    await rejects([{ name: ' ', level: 'ITEM' }], 400, /^\[0\]\.name: must contain a non-whitespace character/);
    for (const field of ['description', 'parentId', 'producedByOrganisationId', 'manufacturingFacilityId', 'primaryIdentifierId', 'secondaryIdentifierIds']) {
      await rejects([{ name: 'N', level: 'ITEM', [field]: null }], 400, new RegExp(`^\\[0\\]\\.${field}: must not be null`));
    }
    await rejects([], 400, /at least one item/);
  });

  it('404 for unknown parent, organisation, facility or identifier; 409 for a primary used by another product', async () => {
    await rejects([{ name: 'N', level: 'ITEM', parentId: 'missing' }], 404, /^\[0\]\.parentId: parent product not found/);
    await rejects([{ name: 'N', level: 'ITEM', producedByOrganisationId: 'missing' }], 404, /^\[0\]\.producedByOrganisationId: organisation not found/);
    await rejects([{ name: 'N', level: 'ITEM', manufacturingFacilityId: 'missing' }], 404, /^\[0\]\.manufacturingFacilityId: facility not found/);
    const [id] = await createIdentifiers(t, token, 1, 4545);
    await bulkCreate(t, token, 'products', [{ name: 'Holder', level: 'ITEM', primaryIdentifierId: id!.id }]);
    const res = await rejects([{ name: 'N', level: 'ITEM', primaryIdentifierId: id!.id }], 409, /^\[0\]\.primaryIdentifierId: /);
    expect(res.body.code).toBe('PRIMARY_IDENTIFIER_IN_USE');
  });
});

describe('GET /products query rules', () => {
  it('400 for an unknown level, repeated parameters, limit over the maximum', async () => {
    for (const [query, error] of [
      ['level=PALLET', /^level: must be one of MODEL, BATCH, ITEM/],
      ['level=MODEL&level=ITEM', /level/],
      ['limit=100000', /^limit: must not exceed the maximum/],
    ] as const) {
      const res = await t.call('GET', `/api/v1/products?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatch(error);
    }
  });
});

describe('PATCH /products/{id} hierarchy', () => {
  it('a BATCH cannot lose its MODEL parent or move under a BATCH; a MODEL cannot get a parent; nothing changes', async () => {
    const originals = await Promise.all([model, batch, item].map(async (p) => (await t.call('GET', `/api/v1/products/${p.id}`, { token })).body));
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [batch.id, { parentId: null }, /^parentId: a BATCH product needs a MODEL parent/],
      [batch.id, { parentId: batch.id }, /^parentId: a BATCH product needs a MODEL parent/],
      [model.id, { parentId: batch.id }, /^parentId: a MODEL product must not have a parent/],
      [item.id, { parentId: model.id }, /^parentId: an ITEM product may only have a BATCH parent/],
      [item.id, { level: 'MODEL' }, /at least one of/],
    ];
    for (const [id, body, error] of cases) {
      const res = await t.call('PATCH', `/api/v1/products/${id}`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
    expect((await t.call('PATCH', `/api/v1/products/${item.id}`, { token, body: { parentId: 'gone' } })).status).toBe(404);
    for (const [i, p] of [model, batch, item].entries()) {
      expect((await t.call('GET', `/api/v1/products/${p.id}`, { token })).body).toEqual(originals[i]);
    }
  });
});

describe('DELETE /products/{id} deletion table', () => {
  it('a MODEL with BATCH children is a 400 (a hierarchy rule) saying it still has batches; nothing is removed', async () => {
    const before = await countMasterData(t.db);
    const res = await t.call('DELETE', `/api/v1/products/${model.id}`, { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'id: the MODEL product still has BATCH products; delete or re-parent them first', code: 'PRODUCT_HAS_BATCHES' });
    expect(await countMasterData(t.db)).toEqual(before);
    expect((await t.call('GET', `/api/v1/products/${batch.id}`, { token })).body.parentId).toBe(model.id);
  });
});
