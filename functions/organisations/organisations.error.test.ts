import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkCreate, countMasterData, createIdentifiers } from '../../test/rig/master-data-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let ids: { id: string; value: string }[];

beforeAll(async () => {
  t = await startTestApp({ env: { API_MAX_PAGE_LIMIT: '50' } });
  token = await t.token('tenantA');
  ids = await createIdentifiers(t, token, 4, 5151);
});
afterAll(() => t.close());

const create = (body: unknown) => t.call('POST', '/api/v1/organisations', { token, body });

/** A bad request writes nothing at all. */
const rejectsWithNothingWritten = async (body: unknown, status: number, error: RegExp | string) => {
  const before = await countMasterData(t.db);
  const res = await create(body);
  expect(res.status).toBe(status);
  expect(res.body.error).toMatch(error);
  expect(await countMasterData(t.db)).toEqual(before);
  return res;
};

describe('POST /organisations validation (all or nothing)', () => {
  it('400 for a body that is not a non-empty array', async () => {
    await rejectsWithNothingWritten([], 400, /must contain at least one item/);
    await rejectsWithNothingWritten({ name: 'Not an array' }, 400, /^body: must be an array/);
    const res = await t.call('POST', '/api/v1/organisations', { token, rawBody: '[{"name": "x",' });
    expect(res.status).toBe(400);
  });

  it('400 naming the item and field for missing, empty or whitespace-only names and descriptions', async () => {
    await rejectsWithNothingWritten([{ name: 'Fine' }, {}], 400, /^\[1\]\.name: is required/);
    await rejectsWithNothingWritten([{ name: 'Fine' }, { name: '   ' }], 400, /^\[1\]\.name: must contain a non-whitespace/);
    await rejectsWithNothingWritten([{ name: 'Fine', description: ' \t' }], 400, /^\[0\]\.description: /);
    await rejectsWithNothingWritten([{ name: 42 }], 400, /^\[0\]\.name: must be a string/);
  });

  it('400 for a location that is not a JSON object', async () => {
    await rejectsWithNothingWritten([{ name: 'A', location: 'Perth' }], 400, /^\[0\]\.location: must be a JSON object/);
    await rejectsWithNothingWritten([{ name: 'A', location: [1, 2] }], 400, /^\[0\]\.location: must be a JSON object/);
  });

  it('400 for secondary ids that are not an array, empty, duplicated, or repeat the primary', async () => {
    await rejectsWithNothingWritten([{ name: 'A', secondaryIdentifierIds: ids[0]!.id }], 400, /^\[0\]\.secondaryIdentifierIds: /);
    await rejectsWithNothingWritten([{ name: 'A', secondaryIdentifierIds: [''] }], 400, /^\[0\]\.secondaryIdentifierIds\[0\]: must not be empty/);
    await rejectsWithNothingWritten(
      [{ name: 'A', secondaryIdentifierIds: [ids[0]!.id, ids[0]!.id] }],
      400,
      /^\[0\]\.secondaryIdentifierIds: must not contain duplicate ids/,
    );
    await rejectsWithNothingWritten(
      [{ name: 'A' }, { name: 'B', primaryIdentifierId: ids[1]!.id, secondaryIdentifierIds: [ids[1]!.id] }],
      400,
      /^\[1\]\.secondaryIdentifierIds: must not contain the primaryIdentifierId/,
    );
  });

  it('404 naming the field for an identifier that does not exist; nothing written', async () => {
    await rejectsWithNothingWritten(
      [{ name: 'A', primaryIdentifierId: ids[0]!.id }, { name: 'B', secondaryIdentifierIds: ['missing-id'] }],
      404,
      /^\[1\]\.secondaryIdentifierIds\[0\]: identifier not found/,
    );
  });

  it('409 when a primary identifier is already primary on another organisation, or twice in one request', async () => {
    await bulkCreate(t, token, 'organisations', [{ name: 'Holder', primaryIdentifierId: ids[2]!.id }]);
    const res = await rejectsWithNothingWritten(
      [{ name: 'New' }, { name: 'Clash', primaryIdentifierId: ids[2]!.id }],
      409,
      /^\[1\]\.primaryIdentifierId: the identifier is already the primary identifier of another organisation/,
    );
    expect(res.body.code).toBe('PRIMARY_IDENTIFIER_IN_USE');
    await rejectsWithNothingWritten(
      [{ name: 'One', primaryIdentifierId: ids[3]!.id }, { name: 'Two', primaryIdentifierId: ids[3]!.id }],
      409,
      /^\[1\]\.primaryIdentifierId: /,
    );
  });

  it('PATCH checks a new primary against the secondary ids the organisation keeps; nothing changes', async () => {
    const [kept, other] = await createIdentifiers(t, token, 2, 6262);
    const [org] = await bulkCreate(t, token, 'organisations', [{ name: 'Keeps', secondaryIdentifierIds: [kept!.id, other!.id] }]);
    const res = await t.call('PATCH', `/api/v1/organisations/${org!.id}`, { token, body: { primaryIdentifierId: kept!.id } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^secondaryIdentifierIds: must not contain the primaryIdentifierId/);
    const after = await t.call('GET', `/api/v1/organisations/${org!.id}`, { token });
    expect(after.body.primaryIdentifierId).toBeNull();
  });

  it('an identifier may be primary on an organisation and on a facility at the same time', async () => {
    const [id] = await createIdentifiers(t, token, 1, 6161);
    await bulkCreate(t, token, 'organisations', [{ name: 'Org', primaryIdentifierId: id!.id }]);
    await bulkCreate(t, token, 'facilities', [{ name: 'Site', primaryIdentifierId: id!.id }]);
  });

  it('of concurrent creates claiming one primary identifier, exactly one succeeds (database-enforced)', async () => {
    const [id] = await createIdentifiers(t, token, 1, 7171);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create([{ name: `Racer ${i}`, primaryIdentifierId: id!.id }])),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.code).toBe('PRIMARY_IDENTIFIER_IN_USE');
    const holders = await t.call('GET', `/api/v1/organisations?search=${id!.value}`, { token });
    expect(holders.body.pagination.total).toBe(1);
  });
});

describe('GET /organisations query rules', () => {
  it('400 for a repeated query parameter, naming it', async () => {
    const res = await t.call('GET', '/api/v1/organisations?search=a&search=b', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/search/);
  });

  it('400 naming the maximum for a limit above it, and for malformed limit/offset', async () => {
    let res = await t.call('GET', '/api/v1/organisations?limit=51', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/50/);
    res = await t.call('GET', '/api/v1/organisations?offset=-1', { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^offset: /);
  });
});

describe('PATCH /organisations/{id} rules', () => {
  let orgId: string;
  let original: unknown;
  beforeAll(async () => {
    const [primary, secondary] = await createIdentifiers(t, token, 2, 8181);
    const [org] = await bulkCreate(t, token, 'organisations', [
      { name: 'Stable', description: 'Kept', primaryIdentifierId: primary!.id, secondaryIdentifierIds: [secondary!.id] },
    ]);
    orgId = org!.id;
    original = (await t.call('GET', `/api/v1/organisations/${orgId}`, { token })).body;
  });
  const patch = (body: unknown) => t.call('PATCH', `/api/v1/organisations/${orgId}`, { token, body });
  const unchanged = async () => expect((await t.call('GET', `/api/v1/organisations/${orgId}`, { token })).body).toEqual(original);

  it('400 without a recognised field', async () => {
    const res = await patch({ colour: 'blue' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/at least one of/);
    await unchanged();
  });

  it('400 for null on a field that null does not clear, and for whitespace-only text', async () => {
    for (const body of [{ name: null }, { location: null }, { secondaryIdentifierIds: null }, { name: '  ' }, { description: ' ' }]) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(new RegExp(`^${Object.keys(body)[0]}: `));
    }
    await unchanged();
  });

  it('400 when the new secondary set contains the current primary; 404 for an unknown identifier', async () => {
    const current = original as { primaryIdentifierId: string };
    let res = await patch({ secondaryIdentifierIds: [current.primaryIdentifierId] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^secondaryIdentifierIds: must not contain the primaryIdentifierId/);
    res = await patch({ primaryIdentifierId: 'nope', name: 'Changed' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/^primaryIdentifierId: identifier not found/);
    await unchanged();
  });

  it('409 when the new primary is primary on another organisation', async () => {
    const [id] = await createIdentifiers(t, token, 1, 9191);
    await bulkCreate(t, token, 'organisations', [{ name: 'Other', primaryIdentifierId: id!.id }]);
    const res = await patch({ primaryIdentifierId: id!.id, name: 'Changed' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PRIMARY_IDENTIFIER_IN_USE');
    await unchanged();
  });

  it('404 for an unknown organisation on get, patch and delete', async () => {
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const res = await t.call(method, '/api/v1/organisations/does-not-exist', { token, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Organisation not found', code: 'NOT_FOUND' });
    }
  });
});
