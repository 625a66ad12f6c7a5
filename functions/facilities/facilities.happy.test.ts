import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkCreate, createIdentifiers } from '../../test/rig/master-data-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let ids: { id: string; value: string }[];
let operator: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  ids = await createIdentifiers(t, token, 5, 1212);
  operator = (await bulkCreate(t, token, 'organisations', [{ name: 'Operator Pty Ltd' }]))[0]!;
});
afterAll(() => t.close());

describe('facilities', () => {
  it('bulk create returns every facility with identifiers and operating organisation', async () => {
    const res = await t.call('POST', '/api/v1/facilities', {
      token,
      body: [
        {
          name: 'Concentrator',
          description: 'Wet plant',
          location: { lat: -20.3, lng: 118.6 },
          operatingOrganisationId: operator.id,
          primaryIdentifierId: ids[0]!.id,
          secondaryIdentifierIds: [ids[1]!.id],
          extra: true,
        },
        { name: 'Port' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({
      name: 'Concentrator',
      description: 'Wet plant',
      location: { lat: -20.3, lng: 118.6 },
      operatingOrganisationId: operator.id,
      operatingOrganisation: { id: operator.id, name: 'Operator Pty Ltd' },
      primaryIdentifier: { id: ids[0]!.id, scheme: { registrar: { name: 'GS1' } } },
      secondaryIdentifierIds: [ids[1]!.id],
      secondaryIdentifiers: [{ id: ids[1]!.id, value: ids[1]!.value }],
    });
    expect(res.body[0]).not.toHaveProperty('extra');
    expect(res.body[1]).toMatchObject({ name: 'Port', operatingOrganisation: null, location: null, primaryIdentifier: null });
    const got = await t.call('GET', `/api/v1/facilities/${res.body[0].id}`, { token });
    expect(got.body).toEqual(res.body[0]);
  });

  it('lists newest first, filters by operating organisation, searches by name or identifier value', async () => {
    const [other] = await bulkCreate(t, token, 'organisations', [{ name: 'Other Operator' }]);
    const [mine] = await bulkCreate(t, token, 'facilities', [
      { name: 'Filtered Mill', operatingOrganisationId: other!.id, secondaryIdentifierIds: [ids[2]!.id] },
    ]);
    const filtered = await t.call('GET', `/api/v1/facilities?organisationId=${other!.id}`, { token });
    expect(filtered.body.data.map((f: { id: string }) => f.id)).toEqual([mine!.id]);
    expect(filtered.body.data[0]).not.toHaveProperty('operatingOrganisation');
    expect(filtered.body.data[0]).not.toHaveProperty('secondaryIdentifiers');
    expect(filtered.body.data[0].secondaryIdentifierIds).toEqual([ids[2]!.id]);
    const byName = await t.call('GET', '/api/v1/facilities?search=filtered%20MILL', { token });
    expect(byName.body.data.map((f: { id: string }) => f.id)).toEqual([mine!.id]);
    const byValue = await t.call('GET', `/api/v1/facilities?search=${ids[2]!.value}`, { token });
    expect(byValue.body.data.map((f: { id: string }) => f.id)).toEqual([mine!.id]);
    const all = await t.call('GET', '/api/v1/facilities', { token });
    expect(all.body.data[0].id).toBe(mine!.id);
  });

  it('PATCH clears description, operating organisation and primary with null; replaces secondaries', async () => {
    const [facility] = await bulkCreate(t, token, 'facilities', [
      { name: 'Patch Me', description: 'd', operatingOrganisationId: operator.id, primaryIdentifierId: ids[3]!.id },
    ]);
    let res = await t.call('PATCH', `/api/v1/facilities/${facility!.id}`, {
      token,
      body: { location: { site: 2 }, secondaryIdentifierIds: [ids[4]!.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ location: { site: 2 }, secondaryIdentifierIds: [ids[4]!.id], description: 'd' });
    res = await t.call('PATCH', `/api/v1/facilities/${facility!.id}`, {
      token,
      body: { description: null, operatingOrganisationId: null, primaryIdentifierId: null, secondaryIdentifierIds: [] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      description: null,
      operatingOrganisationId: null,
      operatingOrganisation: null,
      primaryIdentifier: null,
      secondaryIdentifiers: [],
    });
  });

  it('DELETE nulls product references; the products remain', async () => {
    const [facility] = await bulkCreate(t, token, 'facilities', [{ name: 'Closing' }]);
    const [product] = await bulkCreate(t, token, 'products', [{ name: 'Made there', level: 'ITEM', manufacturingFacilityId: facility!.id }]);
    expect((await t.call('DELETE', `/api/v1/facilities/${facility!.id}`, { token })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/facilities/${facility!.id}`, { token })).status).toBe(404);
    const p = await t.call('GET', `/api/v1/products/${product!.id}`, { token });
    expect(p.body).toMatchObject({ manufacturingFacilityId: null, manufacturingFacility: null });
  });
});
