import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

});
