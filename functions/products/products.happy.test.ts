import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkCreate, createIdentifiers } from '../../test/rig/master-data-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let ids: { id: string; value: string }[];
let org: { id: string };
let facility: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  ids = await createIdentifiers(t, token, 4, 5656);
  org = (await bulkCreate(t, token, 'organisations', [{ name: 'Producer' }]))[0]!;
  facility = (await bulkCreate(t, token, 'facilities', [{ name: 'Factory' }]))[0]!;
});
afterAll(() => t.close());

const product = (id: string) => t.call('GET', `/api/v1/products/${id}`, { token });

describe('products', () => {
  it('creates a MODEL with all relations; the single response includes identifiers, organisation, facility', async () => {
    const res = await t.call('POST', '/api/v1/products', {
      token,
      body: [
        {
          name: 'Battery model X',
          level: 'MODEL',
          description: 'A model',
          producedByOrganisationId: org.id,
          manufacturingFacilityId: facility.id,
          primaryIdentifierId: ids[0]!.id,
          secondaryIdentifierIds: [ids[1]!.id],
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({
      level: 'MODEL',
      parentId: null,
      parent: null,
      producedByOrganisation: { id: org.id, name: 'Producer' },
      manufacturingFacility: { id: facility.id, name: 'Factory' },
      primaryIdentifier: { id: ids[0]!.id, scheme: { registrar: { name: 'GS1' } } },
      secondaryIdentifierIds: [ids[1]!.id],
    });
    expect((await product(res.body[0].id)).body).toEqual(res.body[0]);
  });

  it('a bulk create of 250 (written and read back in steps) answers every product in request order, with its relations', async () => {
    const items = Array.from({ length: 250 }, (_, i) => ({ name: `Bulk ${i}`, level: 'ITEM', producedByOrganisationId: org.id }));
    items[249] = { ...items[249]!, secondaryIdentifierIds: [ids[3]!.id] } as (typeof items)[number];
    const res = await t.call('POST', '/api/v1/products', { token, body: items });
    expect(res.status, res.text).toBe(201);
    expect(res.body.map((p: { name: string }) => p.name)).toEqual(items.map((i) => i.name));
    expect(new Set(res.body.map((p: { id: string }) => p.id)).size).toBe(250);
    expect(res.body[249]).toMatchObject({ producedByOrganisation: { id: org.id }, secondaryIdentifierIds: [ids[3]!.id] });
    expect((await product(res.body[137].id)).body).toEqual(res.body[137]);
  });

  it('hierarchy table: MODEL without parent, BATCH under MODEL, ITEM under BATCH or standalone', async () => {
    const [model] = await bulkCreate(t, token, 'products', [{ name: 'Model', level: 'MODEL' }]);
    const [batch] = await bulkCreate(t, token, 'products', [{ name: 'Batch 1', level: 'BATCH', parentId: model!.id }]);
    const items = await bulkCreate(t, token, 'products', [
      { name: 'Item 1', level: 'ITEM', parentId: batch!.id },
      { name: 'Standalone item', level: 'ITEM' },
    ]);
    const child = (await product(items[0]!.id)).body;
    expect(child).toMatchObject({ parentId: batch!.id, parent: { id: batch!.id, level: 'BATCH', parentId: model!.id } });
    expect((await product(items[1]!.id)).body).toMatchObject({ parentId: null, parent: null });
  });

  it('lists with level, parentId, organisationId and facilityId filters and search', async () => {
    const [model] = await bulkCreate(t, token, 'products', [
      { name: 'Filter Model', level: 'MODEL', producedByOrganisationId: org.id, manufacturingFacilityId: facility.id, secondaryIdentifierIds: [ids[2]!.id] },
    ]);
    const [batch] = await bulkCreate(t, token, 'products', [{ name: 'Filter Batch', level: 'BATCH', parentId: model!.id }]);
    const list = async (query: string) =>
      (await t.call('GET', `/api/v1/products?${query}`, { token })).body.data.map((p: { id: string }) => p.id);
    expect(await list(`parentId=${model!.id}`)).toEqual([batch!.id]);
    expect(await list('level=BATCH')).toContain(batch!.id);
    expect(await list('level=BATCH')).not.toContain(model!.id);
    expect(await list(`organisationId=${org.id}&level=MODEL`)).toContain(model!.id);
    expect(await list(`facilityId=${facility.id}&search=filter`)).toEqual([model!.id]);
    expect(await list(`search=${ids[2]!.value}`)).toEqual([model!.id]);
    const item = (await t.call('GET', '/api/v1/products?level=BATCH&limit=1', { token })).body.data[0];
    expect(item).not.toHaveProperty('parent');
    expect(item).toHaveProperty('secondaryIdentifierIds');
  });

  it('list items carry every secondary identifier id, in id order, with and without search; none is []', async () => {
    const both = [ids[3]!.id, ids[0]!.id];
    const [listed, bare] = await bulkCreate(t, token, 'products', [
      { name: 'Secondary Twice', level: 'MODEL', secondaryIdentifierIds: both },
      { name: 'Secondary None', level: 'MODEL' },
    ]);
    const sorted = [...both].sort();
    const page = (await t.call('GET', '/api/v1/products?level=MODEL&limit=100', { token })).body.data;
    expect(page.find((p: { id: string }) => p.id === listed!.id).secondaryIdentifierIds).toEqual(sorted);
    expect(page.find((p: { id: string }) => p.id === bare!.id).secondaryIdentifierIds).toEqual([]);
    const searched = (await t.call('GET', '/api/v1/products?search=Secondary', { token })).body;
    expect(searched.pagination.total).toBe(2);
    const byId = new Map(searched.data.map((p: { id: string; secondaryIdentifierIds: string[] }) => [p.id, p.secondaryIdentifierIds]));
    expect(byId).toEqual(new Map([[listed!.id, sorted], [bare!.id, []]]));
  });

  it('PATCH: level is silently stripped; the four references clear with null; a new parent follows the rules', async () => {
    const [modelA, modelB] = await bulkCreate(t, token, 'products', [
      { name: 'Model A', level: 'MODEL' },
      { name: 'Model B', level: 'MODEL' },
    ]);
    const [batch] = await bulkCreate(t, token, 'products', [{ name: 'Movable batch', level: 'BATCH', parentId: modelA!.id }]);
    let res = await t.call('PATCH', `/api/v1/products/${batch!.id}`, { token, body: { level: 'ITEM', parentId: modelB!.id, name: 'Moved' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ level: 'BATCH', parentId: modelB!.id, name: 'Moved' });

    const [item] = await bulkCreate(t, token, 'products', [
      { name: 'Item', level: 'ITEM', parentId: batch!.id, producedByOrganisationId: org.id, manufacturingFacilityId: facility.id, primaryIdentifierId: ids[3]!.id },
    ]);
    res = await t.call('PATCH', `/api/v1/products/${item!.id}`, {
      token,
      body: { parentId: null, producedByOrganisationId: null, manufacturingFacilityId: null, primaryIdentifierId: null, description: 'now' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      parentId: null,
      producedByOrganisationId: null,
      manufacturingFacilityId: null,
      primaryIdentifierId: null,
      description: 'now',
      level: 'ITEM',
    });
  });

  it('deletion table: BATCH with ITEM children is deleted and the children lose their parent; leaves go', async () => {
    const [model] = await bulkCreate(t, token, 'products', [{ name: 'Keep model', level: 'MODEL' }]);
    const [batch] = await bulkCreate(t, token, 'products', [{ name: 'Doomed batch', level: 'BATCH', parentId: model!.id }]);
    const [item] = await bulkCreate(t, token, 'products', [{ name: 'Orphan', level: 'ITEM', parentId: batch!.id }]);
    expect((await t.call('DELETE', `/api/v1/products/${batch!.id}`, { token })).status).toBe(204);
    expect((await product(batch!.id)).status).toBe(404);
    expect((await product(item!.id)).body).toMatchObject({ parentId: null, parent: null, name: 'Orphan' });
    expect((await t.call('DELETE', `/api/v1/products/${item!.id}`, { token })).status).toBe(204);
    expect((await t.call('DELETE', `/api/v1/products/${model!.id}`, { token })).status).toBe(204);
  });
});
