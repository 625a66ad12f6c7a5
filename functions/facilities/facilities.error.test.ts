import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkCreate, countMasterData, createIdentifiers } from '../../test/rig/master-data-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let ids: { id: string; value: string }[];

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  ids = await createIdentifiers(t, token, 3, 2323);
});
afterAll(() => t.close());

const rejects = async (body: unknown, status: number, error: RegExp) => {
  const before = await countMasterData(t.db);
  const res = await t.call('POST', '/api/v1/facilities', { token, body });
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.body.error).toMatch(error);
  expect(await countMasterData(t.db)).toEqual(before);
  return res;
};

describe('POST /facilities (all or nothing)', () => {
  it('explicit null on any optional field, location included, is a 400 for the whole request', async () => {
    for (const field of ['description', 'location', 'operatingOrganisationId', 'primaryIdentifierId', 'secondaryIdentifierIds']) {
      await rejects([{ name: 'Good' }, { name: 'Bad', [field]: null }], 400, new RegExp(`^\\[1\\]\\.${field}: must not be null`));
    }
  });

  it('400 for missing or whitespace-only name, non-array or duplicated secondary ids, primary also secondary', async () => {
    await rejects([{}], 400, /^\[0\]\.name: is required/);
    await rejects([{ name: '\n ' }], 400, /^\[0\]\.name: must contain a non-whitespace character/);
    await rejects([{ name: 'A', secondaryIdentifierIds: 'x' }], 400, /^\[0\]\.secondaryIdentifierIds: must be an array/);
    await rejects([{ name: 'A', secondaryIdentifierIds: [ids[0]!.id, ids[0]!.id] }], 400, /duplicate/);
    await rejects(
      [{ name: 'A', primaryIdentifierId: ids[0]!.id, secondaryIdentifierIds: [ids[0]!.id] }],
      400,
      /^\[0\]\.secondaryIdentifierIds: must not contain the primaryIdentifierId/,
    );
    await rejects([{ name: 'A', location: 5 }], 400, /^\[0\]\.location: must be a JSON object/);
  });

  it('404 for an unknown operating organisation or identifier; 409 for a primary already used by a facility', async () => {
    await rejects([{ name: 'A', operatingOrganisationId: 'nope' }], 404, /^\[0\]\.operatingOrganisationId: organisation not found/);
    await rejects([{ name: 'A', primaryIdentifierId: 'nope' }], 404, /^\[0\]\.primaryIdentifierId: identifier not found/);
    await bulkCreate(t, token, 'facilities', [{ name: 'Holder', primaryIdentifierId: ids[1]!.id }]);
    const res = await rejects([{ name: 'B' }, { name: 'C', primaryIdentifierId: ids[1]!.id }], 409, /^\[1\]\.primaryIdentifierId: /);
    expect(res.body.code).toBe('PRIMARY_IDENTIFIER_IN_USE');
  });
});

describe('GET /facilities query rules', () => {
  it('400 for repeated parameters and a limit over the maximum', async () => {
    let res = await t.call('GET', '/api/v1/facilities?organisationId=a&organisationId=b', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/organisationId/);
    res = await t.call('GET', '/api/v1/facilities?limit=100000', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^limit: must not exceed the maximum of \d+/);
  });
});

describe('PATCH /facilities/{id}', () => {
  it('location null is a 400; 409 for a primary used elsewhere; 404 for unknown references; nothing changes', async () => {
    const [taken] = await createIdentifiers(t, token, 1, 3434);
    await bulkCreate(t, token, 'facilities', [{ name: 'Other', primaryIdentifierId: taken!.id }]);
    const [facility] = await bulkCreate(t, token, 'facilities', [{ name: 'Target', location: { a: 1 } }]);
    const original = (await t.call('GET', `/api/v1/facilities/${facility!.id}`, { token })).body;
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ location: null }, 400, /^location: must not be null/],
      [{ name: null }, 400, /^name: must not be null/],
      [{}, 400, /at least one of/],
      [{ name: 'X', primaryIdentifierId: taken!.id }, 409, /^primaryIdentifierId: /],
      [{ name: 'X', operatingOrganisationId: 'missing' }, 404, /^operatingOrganisationId: organisation not found/],
      [{ name: 'X', secondaryIdentifierIds: ['missing'] }, 404, /^secondaryIdentifierIds\[0\]: identifier not found/],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.call('PATCH', `/api/v1/facilities/${facility!.id}`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error).toMatch(error);
    }
    expect((await t.call('GET', `/api/v1/facilities/${facility!.id}`, { token })).body).toEqual(original);
  });
});
