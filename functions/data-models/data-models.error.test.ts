import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataModels } from '../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

const DPP_070 = 'ca3frzta22f7lblxntvw6ukuh';
const DCC_060 = 'c3imzyum0txv1y9xkww88aktp';
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
});
afterAll(() => t.close());

const extension = (overrides: Record<string, unknown> = {}) => ({
  name: 'Battery passport',
  credentialType: 'BatteryPassport',
  version: '0.7.0',
  parentConfigId: DPP_070,
  schemaUrl: 'https://schemas.example.com/battery.json',
  contextUrl: 'https://schemas.example.com/battery/context.jsonld',
  ...overrides,
});
const create = async (body: unknown, tok = token) => t.call('POST', '/api/v1/data-models', { token: tok, body });

describe('data model validation and conflicts', () => {
  it('400s: nested extension, URL rules, immutable fields, whitespace, null; nothing written', async () => {
    const parentExt = (await create(extension({ name: 'Parent ext' }))).body;
    const before = (await t.db.select().from(dataModels)).length;
    for (const [body, error] of [
      [extension({ parentConfigId: parentExt.id, name: 'Nested' }), /^parentConfigId: must be a core data model/],
      [extension({ schemaUrl: 'ftp://x.example.com/s.json' }), /^schemaUrl: must use http or https/],
      [extension({ contextUrl: 'https://u:p@example.com/c' }), /^contextUrl: must not contain a username/],
      [extension({ websiteUrl: 'http://127.0.0.1/docs' }), /^websiteUrl: must not point to/],
      [extension({ schemaUrl: ' https://schemas.example.com/x.json' }), /^schemaUrl: must not have leading or trailing whitespace/],
      [extension({ name: '  ' }), /^name: /],
      [extension({ websiteUrl: null }), /^websiteUrl: must not be null/],
    ] as const) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
    expect((await t.db.select().from(dataModels)).length).toBe(before);
    for (const [body, error] of [
      [{ credentialType: 'Other' }, /^credentialType: is immutable/],
      [{ version: '9.9.9', name: 'x' }, /^version: is immutable/],
      [{ parentConfigId: DCC_060 }, /^parentConfigId: is immutable/],
      [{}, /at least one of/],
      [{ contextUrl: 'http://10.0.0.1/c' }, /^contextUrl: /],
    ] as const) {
      const res = await t.call('PATCH', `/api/v1/data-models/${parentExt.id}`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
    for (const query of ['isExtension=yes', 'version=1&version=2', 'limit=100000']) {
      expect((await t.call('GET', `/api/v1/data-models?${query}`, { token })).status, query).toBe(400);
    }
  });

  it('409 on a name collision (create and rename), also under concurrent creates', async () => {
    const first = (await create(extension({ name: 'Unique name' }))).body;
    const dup = await create(extension({ name: 'Unique name' }));
    expect(dup.status).toBe(409);
    const other = (await create(extension({ name: 'Other name' }))).body;
    expect((await t.call('PATCH', `/api/v1/data-models/${other.id}`, { token, body: { name: 'Unique name' } })).status).toBe(409);
    expect((await create(extension({ name: 'Unique name', version: '0.6.0', parentConfigId: 'cxuj555flzqtp4ldvklv6ya39' }))).status).toBe(201);
    const racers = await Promise.all(Array.from({ length: 5 }, () => create(extension({ name: 'Raced' }))));
    expect(racers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(first.id).toBeTruthy();
    expect((await t.db.select().from(dataModels).where(eq(dataModels.name, 'Raced'))).length).toBe(1);
  });
});

