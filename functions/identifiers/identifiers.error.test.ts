import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifiers } from '../../db/schema/index.ts';
import { countRows, createIdentifier, createScheme, GTIN } from '../../test/rig/scheme-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let scheme: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  scheme = await createScheme(t, token);
});
afterAll(() => t.close());

const create = (body: unknown) => t.call('POST', '/api/v1/identifiers', { token, body });
const patch = (id: string, body: unknown) => t.call('PATCH', `/api/v1/identifiers/${id}`, { token, body });
const get = (id: string) => t.call('GET', `/api/v1/identifiers/${id}`, { token });
const expect400 = (res: { status: number; body: { error: string; code?: string } }, field: string, says?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.startsWith(`${field}: `), res.body.error).toBe(true);
  expect(res.body.code).toBe('VALIDATION_FAILED');
  if (says) expect(res.body.error).toContain(says);
};
const refusedWithoutWriting = async (request: () => Promise<{ status: number; body: any }>) => {
  const before = await countRows(t.db);
  const res = await request();
  expect(await countRows(t.db)).toEqual(before);
  return res;
};

describe('POST /identifiers field rules', () => {
  it.each(['schemeId', 'value'])('400 naming %s when missing or null, nothing written', async (field) => {
    const body: Record<string, unknown> = { schemeId: scheme.id, value: GTIN };
    delete body[field];
    expect400(await refusedWithoutWriting(() => create(body)), field, 'is required');
    expect400(await refusedWithoutWriting(() => create({ schemeId: scheme.id, value: GTIN, [field]: null })), field, 'must not be null');
  });

  it.each(['', ' ', '\t\n  '])('400 for the empty or whitespace-only value %j, even when the pattern accepts it', async (value) => {
    const lenient = await createScheme(t, token, { validationPattern: '^\\s*$', qualifiers: [] });
    const res = await refusedWithoutWriting(() => create({ schemeId: lenient.id, value }));
    expect400(res, 'value', 'must contain a non-whitespace character');
  });

  it.each(['0952012345678', '095201234567888', 'ABCDEFGHIJKLMN', ' 09520123456788', '09520123456788\n'])(
    "400 naming value for %j, which does not match the scheme's validationPattern; nothing written",
    async (value) => {
      const res = await refusedWithoutWriting(() => create({ schemeId: scheme.id, value }));
      expect(res.body).toEqual({
        error: "value: must match the scheme's validationPattern ^\\d{14}$",
        code: 'VALIDATION_FAILED',
      });
    },
  );

  it.each([
    ['schemeId', 7],
    ['value', 9520123456788],
    ['schemeId', ''],
  ])('400 naming %s for %j', async (field, value) => {
    expect400(await create({ schemeId: scheme.id, value: GTIN, [field]: value }), field);
  });

  it('404 naming schemeId for an unknown scheme', async () => {
    const res = await refusedWithoutWriting(() => create({ schemeId: 'no-such-scheme', value: GTIN }));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'schemeId: identifier scheme not found', code: 'NOT_FOUND' });
  });
});

describe('uniqueness per scheme', () => {
  it('409 when the scheme already has the value; nothing written', async () => {
    const own = await createScheme(t, token);
    await createIdentifier(t, token, own.id, GTIN);
    const res = await refusedWithoutWriting(() => create({ schemeId: own.id, value: GTIN }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'value: an identifier with this value already exists for the scheme',
      code: 'IDENTIFIER_EXISTS',
    });
  });

  it('of N concurrent creates of one scheme and value exactly one is 201, the rest 409, and one row exists', async () => {
    const own = await createScheme(t, token);
    const n = 12;
    const results = await Promise.all(Array.from({ length: n }, () => create({ schemeId: own.id, value: GTIN })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(n - 1);
    for (const lost of results.filter((r) => r.status === 409)) expect(lost.body.code).toBe('IDENTIFIER_EXISTS');
    const rows = await t.db
      .select()
      .from(identifiers)
      .where(and(eq(identifiers.schemeId, own.id), eq(identifiers.value, GTIN)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(results.find((r) => r.status === 201)!.body.id);
  });
});

describe('PATCH /identifiers/{id} refusals leave the identifier as it was', () => {
  let identifier: { id: string };
  let before: unknown;
  beforeAll(async () => {
    identifier = await createIdentifier(t, token, scheme.id, '12345678901234');
    before = (await get(identifier.id)).body;
  });
  const unchanged = async () => expect((await get(identifier.id)).body).toEqual(before);

  it('400 when no recognised field is present', async () => {
    for (const body of [{}, { schemeId: scheme.id }, { colour: 'blue' }]) {
      const res = await patch(identifier.id, body);
      expect(res.body).toEqual({ error: 'body: at least one of value is required', code: 'VALIDATION_FAILED' });
    }
    await unchanged();
  });

  it('400 for null, empty, whitespace-only or non-matching values', async () => {
    expect400(await patch(identifier.id, { value: null }), 'value', 'must not be null');
    expect400(await patch(identifier.id, { value: '' }), 'value');
    expect400(await patch(identifier.id, { value: '   ' }), 'value', 'must contain a non-whitespace character');
    expect400(await patch(identifier.id, { value: '123' }), 'value', "must match the scheme's validationPattern");
    await unchanged();
  });

  it("re-validates against the scheme's current pattern", async () => {
    const own = await createScheme(t, token, { qualifiers: [] });
    const mine = await createIdentifier(t, token, own.id, '98765432109876');
    await t.call('PATCH', `/api/v1/schemes/${own.id}`, { token, body: { validationPattern: '^\\d{13}$' } });
    expect400(await patch(mine.id, { value: '98765432109875' }), 'value', '^\\d{13}$');
    expect((await patch(mine.id, { value: '9876543210987' })).status).toBe(200);
  });

  it('409 for a value the scheme already has', async () => {
    await createIdentifier(t, token, scheme.id, '99999999999999');
    const res = await patch(identifier.id, { value: '99999999999999' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDENTIFIER_EXISTS');
    await unchanged();
  });
});

describe('unknown ids', () => {
  it('GET, PATCH and DELETE of an unknown identifier are 404 with the error body', async () => {
    for (const [method, body] of [['GET'], ['PATCH', { value: GTIN }], ['DELETE']] as const) {
      const res = await t.call(method, '/api/v1/identifiers/unknown-id', { token, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Identifier not found', code: 'NOT_FOUND' });
    }
  });
});

describe('GET /identifiers query rules', () => {
  it.each([
    ['schemeId=a&schemeId=b', 'schemeId: query parameter must not be repeated'],
    ['offset=0&offset=0', 'offset: query parameter must not be repeated'],
    ['limit=101', 'limit: must not exceed the maximum of 100'],
    ['limit=', 'limit: must be a positive integer'],
    ['limit=1e1', 'limit: must be a positive integer'],
    ['offset=1.5', 'offset: must be a non-negative integer'],
    ['schemeId=', 'schemeId: must not be empty'],
  ])('400 for ?%s', async (query, error) => {
    const res = await t.call('GET', `/api/v1/identifiers?${query}`, { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error, code: 'VALIDATION_FAILED' });
  });

  it('a lower API_MAX_PAGE_LIMIT is the maximum named in the 400 and lowers the default page', async () => {
    const small = await startTestApp({ env: { API_MAX_PAGE_LIMIT: '5' } });
    try {
      const smallToken = await small.token('tenantA');
      const over = await small.call('GET', '/api/v1/identifiers?limit=6', { token: smallToken });
      expect(over.body).toEqual({ error: 'limit: must not exceed the maximum of 5', code: 'VALIDATION_FAILED' });
      const page = await small.call('GET', '/api/v1/identifiers', { token: smallToken });
      expect(page.body.pagination.limit).toBe(5);
    } finally {
      await small.close();
    }
  });
});
