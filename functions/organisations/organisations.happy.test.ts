import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkCreate, createIdentifiers } from '../../test/rig/master-data-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let ids: { id: string; value: string }[];

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  ids = await createIdentifiers(t, token, 6, 4242);
});
afterAll(() => t.close());

describe('POST /organisations', () => {
  it('creates every item in request order with identifier relations (scheme and registrar included)', async () => {
    const res = await t.call('POST', '/api/v1/organisations', {
      token,
      body: [
        {
          name: 'Acme Mining',
          description: 'Miner',
          location: { country: 'AU', geo: { lat: -22.5, lng: 118.2 } },
          primaryIdentifierId: ids[0]!.id,
          secondaryIdentifierIds: [ids[2]!.id, ids[1]!.id],
          unknownKey: 'ignored',
        },
        { name: 'Beta Traders' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(2);
    const [acme, beta] = res.body;
    expect(acme).toMatchObject({
      name: 'Acme Mining',
      description: 'Miner',
      location: { country: 'AU', geo: { lat: -22.5, lng: 118.2 } },
      primaryIdentifierId: ids[0]!.id,
      primaryIdentifier: { id: ids[0]!.id, value: ids[0]!.value, scheme: { registrar: { name: 'GS1' } } },
    });
    expect(acme.secondaryIdentifiers.map((i: { id: string }) => i.id).sort()).toEqual([ids[1]!.id, ids[2]!.id].sort());
    expect(acme.secondaryIdentifierIds.sort()).toEqual([ids[1]!.id, ids[2]!.id].sort());
    expect(acme).not.toHaveProperty('unknownKey');
    expect(acme).not.toHaveProperty('tenantId');
    expect(beta).toMatchObject({
      name: 'Beta Traders',
      description: null,
      location: null,
      primaryIdentifierId: null,
      primaryIdentifier: null,
      secondaryIdentifiers: [],
      secondaryIdentifierIds: [],
    });
  });

  it('treats explicit null on optional organisation fields as omitted', async () => {
    const res = await t.call('POST', '/api/v1/organisations', {
      token,
      body: [{ name: 'Nully', description: null, location: null, primaryIdentifierId: null, secondaryIdentifierIds: null }],
    });
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ description: null, location: null, primaryIdentifierId: null, secondaryIdentifierIds: [] });
  });
});

describe('GET /organisations', () => {
  it('lists newest first; items carry secondaryIdentifierIds but not the relations', async () => {
    const [org] = await bulkCreate(t, token, 'organisations', [{ name: 'Listed Co', secondaryIdentifierIds: [ids[3]!.id] }]);
    const res = await t.call('GET', '/api/v1/organisations?limit=1', { token });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ id: org!.id, secondaryIdentifierIds: [ids[3]!.id] });
    expect(res.body.data[0]).not.toHaveProperty('primaryIdentifier');
    expect(res.body.data[0]).not.toHaveProperty('secondaryIdentifiers');
    expect(res.body.pagination).toMatchObject({ limit: 1, offset: 0, hasMore: true });
    expect(res.body.pagination.total).toBeGreaterThanOrEqual(4);
  });

  it('search matches the name case-insensitively, or a primary or secondary identifier value', async () => {
    await bulkCreate(t, token, 'organisations', [
      { name: 'Zebra Searchable Holdings' },
      { name: 'Primary Holder', primaryIdentifierId: ids[4]!.id },
      { name: 'Secondary Holder', secondaryIdentifierIds: [ids[5]!.id] },
    ]);
    const names = async (search: string) =>
      (await t.call('GET', `/api/v1/organisations?search=${encodeURIComponent(search)}`, { token })).body.data.map(
        (o: { name: string }) => o.name,
      );
    expect(await names('zebra searchable')).toEqual(['Zebra Searchable Holdings']);
    expect(await names(ids[4]!.value)).toEqual(['Primary Holder']);
    expect(await names(ids[5]!.value)).toEqual(['Secondary Holder']);
    expect(await names('%')).toEqual([]);
    expect(await names('no such thing')).toEqual([]);
    const paged = await t.call('GET', '/api/v1/organisations?search=holder&limit=1', { token });
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
    const beyond = await t.call('GET', '/api/v1/organisations?search=holder&offset=5', { token });
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination.total).toBe(2);
  });
});

describe('GET/PATCH/DELETE /organisations/{id}', () => {
  it('PATCH changes stated fields, clears description and primary with null, replaces and clears secondaries', async () => {
    const [org] = await bulkCreate(t, token, 'organisations', [
      { name: 'Patchable', description: 'Before' },
    ]);
    const fresh = await createIdentifiers(t, token, 3, 777);
    let res = await t.call('PATCH', `/api/v1/organisations/${org!.id}`, {
      token,
      body: { name: 'Patched', primaryIdentifierId: fresh[0]!.id, secondaryIdentifierIds: [fresh[1]!.id, fresh[2]!.id], location: { a: 1 } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Patched', description: 'Before', location: { a: 1 }, primaryIdentifier: { id: fresh[0]!.id } });
    expect(res.body.secondaryIdentifierIds.sort()).toEqual([fresh[1]!.id, fresh[2]!.id].sort());
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThan(new Date(res.body.createdAt).getTime());

    res = await t.call('PATCH', `/api/v1/organisations/${org!.id}`, { token, body: { secondaryIdentifierIds: [fresh[2]!.id] } });
    expect(res.body.secondaryIdentifierIds).toEqual([fresh[2]!.id]);
    expect(res.body.primaryIdentifierId).toBe(fresh[0]!.id);

    res = await t.call('PATCH', `/api/v1/organisations/${org!.id}`, {
      token,
      body: { description: null, primaryIdentifierId: null, secondaryIdentifierIds: [] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: null, primaryIdentifierId: null, primaryIdentifier: null, secondaryIdentifiers: [] });

    const got = await t.call('GET', `/api/v1/organisations/${org!.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('a primary identifier can move: freed by one organisation, taken by another', async () => {
    const [id] = await createIdentifiers(t, token, 1, 888);
    const [a, b] = await bulkCreate(t, token, 'organisations', [{ name: 'A', primaryIdentifierId: id!.id }, { name: 'B' }]);
    expect((await t.call('PATCH', `/api/v1/organisations/${a!.id}`, { token, body: { primaryIdentifierId: null } })).status).toBe(200);
    const res = await t.call('PATCH', `/api/v1/organisations/${b!.id}`, { token, body: { primaryIdentifierId: id!.id } });
    expect(res.status).toBe(200);
    expect(res.body.primaryIdentifierId).toBe(id!.id);
  });

  it('DELETE nulls references from facilities and products; the related records remain', async () => {
    const [org] = await bulkCreate(t, token, 'organisations', [{ name: 'Going' }]);
    const [facility] = await bulkCreate(t, token, 'facilities', [{ name: 'Plant', operatingOrganisationId: org!.id }]);
    const [product] = await bulkCreate(t, token, 'products', [{ name: 'Widget', level: 'MODEL', producedByOrganisationId: org!.id }]);
    expect((await t.call('DELETE', `/api/v1/organisations/${org!.id}`, { token })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/organisations/${org!.id}`, { token })).status).toBe(404);
    const f = await t.call('GET', `/api/v1/facilities/${facility!.id}`, { token });
    expect(f.body).toMatchObject({ operatingOrganisationId: null, operatingOrganisation: null });
    const p = await t.call('GET', `/api/v1/products/${product!.id}`, { token });
    expect(p.body).toMatchObject({ producedByOrganisationId: null, producedByOrganisation: null });
  });

  it('deleting an identifier clears it as primary and removes it as secondary; the organisation remains', async () => {
    const [primary, secondary] = await createIdentifiers(t, token, 2, 999);
    const [org] = await bulkCreate(t, token, 'organisations', [
      { name: 'Keeps', primaryIdentifierId: primary!.id, secondaryIdentifierIds: [secondary!.id] },
    ]);
    expect((await t.call('DELETE', `/api/v1/identifiers/${primary!.id}`, { token })).status).toBe(204);
    expect((await t.call('DELETE', `/api/v1/identifiers/${secondary!.id}`, { token })).status).toBe(204);
    const res = await t.call('GET', `/api/v1/organisations/${org!.id}`, { token });
    expect(res.body).toMatchObject({ name: 'Keeps', primaryIdentifierId: null, secondaryIdentifierIds: [], secondaryIdentifiers: [] });
  });
});
