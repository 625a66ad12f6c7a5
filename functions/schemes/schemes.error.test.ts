import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierSchemes, schemeQualifiers } from '../../db/schema/index.ts';
import {
  insertIdentifier,
  insertRegistrar,
  insertScheme,
  SYSTEM_SERVICE_IDS,
  SYSTEM_TENANT_ID,
} from '../../test/rig/fixtures.ts';
import {
  countRows,
  createRegistrar,
  createScheme,
  gtinBody,
  qualifiersOf,
  untilABackendWaitsOnALock,
} from '../../test/rig/scheme-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let registrarId: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
  registrarId = (await createRegistrar(t, token)).id;
});
afterAll(() => t.close());

const create = (body: unknown) => t.call('POST', '/api/v1/schemes', { token, body });
const patch = (id: string, body: unknown) => t.call('PATCH', `/api/v1/schemes/${id}`, { token, body });
const get = (id: string) => t.call('GET', `/api/v1/schemes/${id}`, { token });
const expect400 = (res: { status: number; body: { error: string; code?: string } }, field: string, says?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.startsWith(`${field}: `), res.body.error).toBe(true);
  expect(res.body.code).toBe('VALIDATION_FAILED');
  if (says) expect(res.body.error).toContain(says);
};
/** Runs a refused request and asserts that no scheme, qualifier or identifier was written. */
const refusedWithoutWriting = async (request: () => Promise<{ status: number; body: any }>) => {
  const before = await countRows(t.db);
  const res = await request();
  expect(await countRows(t.db)).toEqual(before);
  return res;
};
const qualifier = (overrides: Record<string, unknown> = {}) => ({
  key: '10',
  description: 'Batch or lot number',
  validationPattern: '^[A-Za-z0-9]{1,20}$',
  ...overrides,
});

describe('POST /schemes field rules', () => {
  it.each(['registrarId', 'name', 'primaryKey', 'validationPattern', 'linkTemplate'])(
    '400 naming %s when it is missing',
    async (field) => {
      const body: Record<string, unknown> = gtinBody(registrarId);
      delete body[field];
      expect400(await refusedWithoutWriting(() => create(body)), field, 'is required');
    },
  );

  it.each(['registrarId', 'name', 'primaryKey', 'validationPattern', 'linkTemplate', 'idrServiceInstanceId', 'qualifiers'])(
    '400 naming %s when it is explicitly null, nothing written',
    async (field) => {
      const res = await refusedWithoutWriting(() => create(gtinBody(registrarId, { [field]: null })));
      expect400(res, field);
      expect(res.body.error).toBe(`${field}: must not be null`);
    },
  );

  it.each([
    ['name', ''],
    ['name', '   '],
    ['primaryKey', '\t\n'],
    ['primaryKey', ''],
    ['linkTemplate', ' '],
    ['registrarId', ''],
    ['idrServiceInstanceId', ''],
  ])('400 naming %s for empty or whitespace-only text %j', async (field, value) => {
    expect400(await refusedWithoutWriting(() => create(gtinBody(registrarId, { [field]: value }))), field);
  });

  it('400 for an empty validationPattern (whitespace-only is accepted, see the happy tests)', async () => {
    expect400(await create(gtinBody(registrarId, { validationPattern: '' })), 'validationPattern', 'must not be empty');
  });

  it.each(['[', '(abc', '*', 'a{2,1}', '(?<n>a)(?<n>b)', '\\', '(?<=a'])(
    '400 naming validationPattern for %j, which does not compile',
    async (pattern) => {
      const res = await refusedWithoutWriting(() => create(gtinBody(registrarId, { validationPattern: pattern })));
      expect400(res, 'validationPattern', 'must be a valid regular expression');
    },
  );

  it.each([
    ['name', 42],
    ['primaryKey', ['01']],
    ['validationPattern', { source: '.*' }],
    ['linkTemplate', true],
    ['qualifiers', { key: '10' }],
    ['qualifiers', 'none'],
  ])('400 naming %s for a value of the wrong type', async (field, value) => {
    expect400(await create(gtinBody(registrarId, { [field]: value })), field);
  });

  it('400 for a body that is not an object', async () => {
    expect((await create([gtinBody(registrarId)])).status).toBe(400);
    expect((await create('GTIN')).status).toBe(400);
  });
});

describe('POST /schemes qualifier rules', () => {
  it.each(['key', 'description', 'validationPattern'])('400 naming qualifiers[1].%s when it is missing', async (field) => {
    const second: Record<string, unknown> = qualifier({ key: '21' });
    delete second[field];
    const res = await refusedWithoutWriting(() => create(gtinBody(registrarId, { qualifiers: [qualifier(), second] })));
    expect400(res, `qualifiers[1].${field}`, 'is required');
  });

  it.each(['key', 'description', 'validationPattern', 'order'])('400 naming qualifiers[0].%s when it is null', async (field) => {
    const res = await refusedWithoutWriting(() => create(gtinBody(registrarId, { qualifiers: [qualifier({ [field]: null })] })));
    expect400(res, `qualifiers[0].${field}`, 'must not be null');
  });

  it.each([
    ['key', '  '],
    ['key', ''],
    ['description', '\t'],
    ['validationPattern', ''],
  ])('400 naming qualifiers[0].%s for empty or whitespace-only %j', async (field, value) => {
    expect400(await create(gtinBody(registrarId, { qualifiers: [qualifier({ [field]: value })] })), `qualifiers[0].${field}`);
  });

  it.each(['[A-Z', '+', '(?P<x>a)'])('400 naming qualifiers[0].validationPattern for %j', async (pattern) => {
    const res = await refusedWithoutWriting(() =>
      create(gtinBody(registrarId, { qualifiers: [qualifier({ validationPattern: pattern })] })),
    );
    expect400(res, 'qualifiers[0].validationPattern', 'must be a valid regular expression');
  });

  it.each([
    [-1, 'must be a non-negative integer'],
    [2147483648, 'must be at most 2147483647'],
    [1.5, 'must be an integer'],
    ['1', 'must be an integer'],
    [1e20, 'must be'],
  ])('400 naming qualifiers[0].order for %j', async (order, message) => {
    const res = await refusedWithoutWriting(() => create(gtinBody(registrarId, { qualifiers: [qualifier({ order })] })));
    expect400(res, 'qualifiers[0].order', message);
  });

  it('400 naming the repeated key of the submitted array, nothing written', async () => {
    const res = await refusedWithoutWriting(() =>
      create(gtinBody(registrarId, { qualifiers: [qualifier(), qualifier({ key: '21' }), qualifier({ description: 'Again' })] })),
    );
    expect(res.body).toEqual({ error: 'qualifiers[2].key: duplicates qualifiers[0].key', code: 'VALIDATION_FAILED' });
  });
});

describe('POST /schemes references and uniqueness', () => {
  it('404 naming registrarId for an unknown registrar, nothing written', async () => {
    const res = await refusedWithoutWriting(() => create(gtinBody('no-such-registrar')));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'registrarId: registrar not found', code: 'NOT_FOUND' });
  });

  it('404 for an unknown idrServiceInstanceId and 400 for a non-IDR instance, nothing written', async () => {
    const missing = await refusedWithoutWriting(() => create(gtinBody(registrarId, { idrServiceInstanceId: 'nope' })));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: 'idrServiceInstanceId: service instance not found',
      code: 'SERVICE_INSTANCE_NOT_FOUND',
    });
    const storage = await refusedWithoutWriting(() =>
      create(gtinBody(registrarId, { idrServiceInstanceId: SYSTEM_SERVICE_IDS.STORAGE })),
    );
    expect400(storage, 'idrServiceInstanceId', 'not an IDR instance');
  });

  it('409 when the registrar already has the primaryKey; nothing written', async () => {
    const registrar = await createRegistrar(t, token);
    await createScheme(t, token, { registrarId: registrar.id });
    const res = await refusedWithoutWriting(() => create(gtinBody(registrar.id, { name: 'Other' })));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'primaryKey: a scheme with this primaryKey already exists for the registrar',
      code: 'SCHEME_PRIMARY_KEY_EXISTS',
    });
  });

  it('409 for a primaryKey a system scheme holds under a system registrar', async () => {
    const system = await insertRegistrar(t.db, SYSTEM_TENANT_ID, 'Shared');
    await insertScheme(t.db, { tenantId: SYSTEM_TENANT_ID, registrarId: system.id, primaryKey: '01' });
    const res = await refusedWithoutWriting(() => create(gtinBody(system.id)));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SCHEME_PRIMARY_KEY_EXISTS');
  });

  it('of concurrent creates of one primaryKey exactly one wins; the others get the same 409', async () => {
    const registrar = await createRegistrar(t, token);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(gtinBody(registrar.id, { name: `Racer ${i}` }))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const lost of results.filter((r) => r.status === 409)) expect(lost.body.code).toBe('SCHEME_PRIMARY_KEY_EXISTS');
    const rows = await t.db.select().from(identifierSchemes).where(eq(identifierSchemes.registrarId, registrar.id));
    expect(rows).toHaveLength(1);
    expect(await qualifiersOf(t.db, rows[0]!.id)).toHaveLength(2);
  });
});

describe('PATCH /schemes/{id} refusals leave the scheme as it was', () => {
  let scheme: { id: string; registrarId: string };
  let before: any;
  beforeAll(async () => {
    scheme = await createScheme(t, token);
    before = (await get(scheme.id)).body;
  });
  const unchanged = async () => expect((await get(scheme.id)).body).toEqual(before);

  it('400 when no recognised field is present', async () => {
    for (const body of [{}, { colour: 'blue' }, { registrarId }, { registrar: {} }]) {
      const res = await patch(scheme.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        'body: at least one of name, primaryKey, validationPattern, linkTemplate, idrServiceInstanceId, qualifiers is required',
      );
    }
    await unchanged();
  });

  it.each(['name', 'primaryKey', 'validationPattern', 'linkTemplate', 'qualifiers'])('400 for null %s (only idrServiceInstanceId clears)', async (field) => {
    expect400(await patch(scheme.id, { [field]: null }), field, 'must not be null');
    await unchanged();
  });

  it('400 for whitespace-only text and non-compiling patterns, even beside valid changes', async () => {
    expect400(await patch(scheme.id, { name: '  ' }), 'name');
    expect400(await patch(scheme.id, { primaryKey: '' }), 'primaryKey');
    expect400(await patch(scheme.id, { linkTemplate: '\n' }), 'linkTemplate');
    expect400(await patch(scheme.id, { name: 'New', validationPattern: '(' }), 'validationPattern');
    expect400(await patch(scheme.id, { qualifiers: [qualifier({ validationPattern: '[' })] }), 'qualifiers[0].validationPattern');
    expect400(await patch(scheme.id, { qualifiers: [qualifier({ order: -1 })] }), 'qualifiers[0].order');
    expect400(await patch(scheme.id, { qualifiers: [qualifier({ order: 2147483648 })] }), 'qualifiers[0].order');
    expect400(await patch(scheme.id, { qualifiers: [qualifier({ order: 1.5 })] }), 'qualifiers[0].order');
    await unchanged();
  });

  it('400 naming the repeated qualifier key of the array', async () => {
    const res = await patch(scheme.id, { name: 'New', qualifiers: [qualifier(), qualifier()] });
    expect(res.body).toEqual({ error: 'qualifiers[1].key: duplicates qualifiers[0].key', code: 'VALIDATION_FAILED' });
    await unchanged();
  });

  it('404 for an inaccessible idrServiceInstanceId, with nothing else applied', async () => {
    const res = await patch(scheme.id, { name: 'New', qualifiers: [], idrServiceInstanceId: 'nope' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('SERVICE_INSTANCE_NOT_FOUND');
    await unchanged();
  });

  it('409 for a primaryKey the registrar already has, with nothing else applied', async () => {
    const sibling = await createScheme(t, token, { registrarId: scheme.registrarId, primaryKey: 'gln' });
    const res = await patch(scheme.id, { name: 'New', primaryKey: 'gln', qualifiers: [] });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SCHEME_PRIMARY_KEY_EXISTS');
    await unchanged();
    expect((await get(sibling.id)).body.primaryKey).toBe('gln');
  });
});

describe('409 for a qualifier key the scheme already has', () => {
  it('a key written by a concurrent transaction is refused, and nothing of the PATCH is applied', async () => {
    const scheme = await createScheme(t, token);
    const before = (await get(scheme.id)).body;
    let pending!: ReturnType<typeof patch>;
    await t.db.transaction(async (tx) => {
      // Another writer adds key 'lot' and has not committed yet; the PATCH's own 'lot' must wait for it.
      await tx.insert(schemeQualifiers).values({ schemeId: scheme.id, key: 'lot', description: 'Rival', validationPattern: '.*' });
      pending = patch(scheme.id, { name: 'Renamed', qualifiers: [qualifier({ key: 'lot' })] });
      await untilABackendWaitsOnALock(t.db);
    });
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'qualifiers: a qualifier with this key already exists for the scheme',
      code: 'QUALIFIER_KEY_EXISTS',
    });
    const after = (await get(scheme.id)).body;
    expect(after.name).toBe(before.name);
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(after.qualifiers.map((q: { key: string }) => q.key).sort()).toEqual(['10', '21', 'lot']);
  });
});

describe('unknown ids', () => {
  it('GET, PATCH and DELETE of an unknown scheme are 404 with the error body', async () => {
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const res = await t.call(method, '/api/v1/schemes/unknown-id', { token, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Identifier scheme not found', code: 'NOT_FOUND' });
    }
  });
});

describe('DELETE /schemes/{id} while identifiers reference it', () => {
  it('409 SCHEME_IN_USE and nothing is removed', async () => {
    const scheme = await createScheme(t, token);
    await insertIdentifier(t.db, await t.tenantOf('tenantA'), scheme.id);
    const res = await refusedWithoutWriting(() => t.call('DELETE', `/api/v1/schemes/${scheme.id}`, { token }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'Identifier scheme cannot be deleted while identifiers reference it',
      code: 'SCHEME_IN_USE',
    });
    expect((await get(scheme.id)).body.qualifiers).toHaveLength(2);
  });
});

describe('GET /schemes query rules', () => {
  it.each([
    ['registrarId=a&registrarId=b', 'registrarId: query parameter must not be repeated'],
    ['limit=5&limit=5', 'limit: query parameter must not be repeated'],
    ['limit=101', 'limit: must not exceed the maximum of 100'],
    ['limit=0', 'limit: must be a positive integer'],
    ['limit=1.5', 'limit: must be a positive integer'],
    ['limit=-1', 'limit: must be a positive integer'],
    ['offset=-1', 'offset: must be a non-negative integer'],
    ['offset=1e1', 'offset: must be a non-negative integer'],
    ['registrarId=', 'registrarId: must not be empty'],
  ])('400 for ?%s', async (query, error) => {
    const res = await t.call('GET', `/api/v1/schemes?${query}`, { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error, code: 'VALIDATION_FAILED' });
  });
});
