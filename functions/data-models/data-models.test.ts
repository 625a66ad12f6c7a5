import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataModels } from '../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

const DPP_070 = 'ca3frzta22f7lblxntvw6ukuh';
const DCC_060 = 'c3imzyum0txv1y9xkww88aktp';
let t: TestApp;
let token: string;
let tokenB: string;

beforeAll(async () => {
  t = await startTestApp();
  [token, tokenB] = await Promise.all([t.token('tenantA'), t.token('tenantB')]);
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

describe('core data models', () => {
  it('are seeded for 0.6.0, 0.6.1 and 0.7.0 plus ConformityScheme 0.7.0, with fixed ids and UNTP URLs, read-only', async () => {
    const all = await t.call('GET', '/api/v1/data-models?isExtension=false&limit=100', { token });
    expect(all.body.pagination.total).toBe(16);
    const dpp = (await t.call('GET', `/api/v1/data-models/${DPP_070}`, { token })).body;
    expect(dpp).toMatchObject({
      name: 'Digital Product Passport v0.7.0',
      credentialType: 'DigitalProductPassport',
      version: '0.7.0',
      isExtension: false,
      isSystemDefault: true,
      schemaUrl: 'https://untp.unece.org/artefacts/schema/v0.7.0/dpp/DigitalProductPassport.json',
      contextUrl: 'https://vocabulary.uncefact.org/untp/0.7.0/context/',
      websiteUrl: 'https://untp.unece.org/docs/specification/DigitalProductPassport',
      parentConfig: null,
      renderTemplates: [],
    });
    const dcc = (await t.call('GET', `/api/v1/data-models/${DCC_060}`, { token })).body;
    expect(dcc.schemaUrl).toBe('https://test.uncefact.org/vocabulary/untp/dcc/untp-dcc-schema-0.6.0.json');
    expect((await t.call('PATCH', `/api/v1/data-models/${DPP_070}`, { token, body: { name: 'Mine' } })).status).toBe(403);
    expect((await t.call('DELETE', `/api/v1/data-models/${DPP_070}`, { token })).status).toBe(403);
    const filtered = await t.call('GET', '/api/v1/data-models?credentialType=DigitalFacilityRecord&version=0.6.1', { token });
    expect(filtered.body.data.map((m: { id: string }) => m.id)).toEqual(['csrtste8ai2llop7ui8u6n11l']);
  });
});

describe('extensions', () => {
  it('create, read with parent and extensions, rename, delete', async () => {
    const made = await create(extension({ websiteUrl: 'https://docs.example.com/battery' }));
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ isExtension: true, isSystemDefault: false, parentConfigId: DPP_070, websiteUrl: 'https://docs.example.com/battery' });
    const one = (await t.call('GET', `/api/v1/data-models/${made.body.id}`, { token })).body;
    expect(one.parentConfig.id).toBe(DPP_070);
    const parent = (await t.call('GET', `/api/v1/data-models/${DPP_070}`, { token })).body;
    expect(parent.extensions.map((e: { id: string }) => e.id)).toContain(made.body.id);
    const renamed = await t.call('PATCH', `/api/v1/data-models/${made.body.id}`, { token, body: { name: 'Battery passport 2', schemaUrl: 'https://schemas.example.com/b2.json' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Battery passport 2', schemaUrl: 'https://schemas.example.com/b2.json', credentialType: 'BatteryPassport' });
    expect((await t.call('DELETE', `/api/v1/data-models/${made.body.id}`, { token })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/data-models/${made.body.id}`, { token })).status).toBe(404);
  });

  it('form-config: entity pickers by type, conformity pickers for DPP/DCC/DFR, empty for unregistered types', async () => {
    const dpp = (await t.call('GET', `/api/v1/data-models/${DPP_070}/form-config`, { token })).body;
    expect(dpp.sections.map((s: { key: string }) => s.key)).toEqual(['organisation', 'facility', 'product', 'conformityScheme', 'conformityProfile']);
    expect(dpp.sections.at(-1)).toMatchObject({ dependsOn: 'conformityScheme', required: false });
    const dia = (await t.call('GET', '/api/v1/data-models/cw0tzf723j1oql3u4s1r0c2g2/form-config', { token })).body;
    expect(dia.sections.map((s: { entity: string }) => s.entity)).toEqual(['Organisation']);
    const dte = (await t.call('GET', '/api/v1/data-models/cfhlj3bumipb74z8irp6uiuxn/form-config', { token })).body;
    expect(dte.sections.map((s: { entity: string }) => s.entity)).toEqual(['Organisation', 'Product']);
    const cvc = (await t.call('GET', '/api/v1/data-models/c4fxk5o3sqrm6n0u7c7akm0sb/form-config', { token })).body;
    expect(cvc.sections).toEqual([]);
  });

  it('form-config of an extension follows its own credentialType: unregistered types get no sections', async () => {
    const unregistered = (await create(extension({ name: 'Unregistered type' }))).body;
    const res = await t.call('GET', `/api/v1/data-models/${unregistered.id}/form-config`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ credentialType: 'BatteryPassport', sections: [] });
    const registered = (await create(extension({ name: 'Registered type', credentialType: 'DigitalTraceabilityEvent' }))).body;
    const dte = (await t.call('GET', `/api/v1/data-models/${registered.id}/form-config`, { token })).body;
    expect(dte.sections.map((s: { entity: string }) => s.entity)).toEqual(['Organisation', 'Product']);
  });

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

describe('data model security', () => {
  it('401 without a token; another tenant’s extension is a 404 like a missing one, also as a parent', async () => {
    expect((await t.call('GET', '/api/v1/data-models')).status).toBe(401);
    expect((await t.call('POST', '/api/v1/data-models', { body: extension() })).status).toBe(401);
    const mine = (await create(extension({ name: 'Private to A' }))).body;
    for (const [method, body] of [['GET'], ['PATCH', { name: 'stolen' }], ['DELETE']] as const) {
      const foreign = await t.call(method, `/api/v1/data-models/${mine.id}`, { token: tokenB, body });
      const missing = await t.call(method, '/api/v1/data-models/nope', { token: tokenB, body });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(missing.body);
    }
    expect((await t.call('GET', `/api/v1/data-models/${mine.id}/form-config`, { token: tokenB })).status).toBe(404);
    const list = await t.call('GET', '/api/v1/data-models?isExtension=true&limit=100', { token: tokenB });
    expect(list.body.data.map((m: { id: string }) => m.id)).not.toContain(mine.id);
    const foreignParent = await create(extension({ name: 'x', parentConfigId: mine.id }), tokenB);
    const missingParent = await create(extension({ name: 'x', parentConfigId: 'nope' }), tokenB);
    expect(foreignParent.status).toBe(404);
    expect(foreignParent.body).toEqual(missingParent.body);
    expect((await t.call('GET', `/api/v1/data-models/${mine.id}`, { token })).body.name).toBe('Private to A');
  });
});
