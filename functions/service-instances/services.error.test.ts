import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
});
afterAll(() => t.close());

const vcBody = (overrides: Record<string, unknown> = {}) => ({
  serviceType: 'VC',
  adapterType: 'VC_ADAPTER',
  name: 'VCkit',
  config: { baseUrl: 'https://vc.example.com', apiKey: 'k' },
  ...overrides,
});
const rejects = async (body: unknown, status: number, error: RegExp) => {
  const before = (await t.db.select().from(serviceInstances)).length;
  const res = await t.call('POST', '/api/v1/services', { token, body });
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.body.error).toMatch(error);
  expect((await t.db.select().from(serviceInstances)).length).toBe(before);
};

describe('POST /services validation', () => {
  it('400 for unknown types, a mismatched adapter, blank or null names, null description', async () => {
    await rejects(vcBody({ serviceType: 'EMAIL' }), 400, /^serviceType: must be one of IDR, STORAGE, VC/);
    await rejects(vcBody({ adapterType: 'VCKIT' }), 400, /^adapterType: must be one of/);
    await rejects(vcBody({ adapterType: 'IDR_ADAPTER' }), 400, /^adapterType: a VC service uses VC_ADAPTER/);
    await rejects(vcBody({ name: '  ' }), 400, /^name: must contain a non-whitespace character/);
    await rejects(vcBody({ name: null }), 400, /^name: must not be null/);
    await rejects(vcBody({ description: null }), 400, /^description: must not be null/);
    await rejects(vcBody({ description: ' ' }), 400, /^description: /);
    await rejects(vcBody({ isPrimary: 'yes' }), 400, /^isPrimary: must be a boolean/);
  });

  it('400 naming the config field for a config that does not fit the adapter', async () => {
    await rejects(vcBody({ config: undefined }), 400, /^config: is required/);
    await rejects(vcBody({ config: [1] }), 400, /^config: must be a JSON object/);
    await rejects(vcBody({ config: { baseUrl: 'https://vc.example.com' } }), 400, /^config\.apiKey: is required/);
    await rejects(vcBody({ config: { baseUrl: 'https://vc.example.com', apiKey: 'k', colour: 'red' } }), 400, /^config: unknown field colour/);
    await rejects(
      { serviceType: 'STORAGE', adapterType: 'STORAGE_ADAPTER', name: 'S', config: { baseUrl: 'https://s.example.com', publicBucket: 'a', privateBucket: 'b', apiVersion: '3.1' } },
      400,
      /^config\.apiVersion: must be 4\.0 or a 3\.x\.y version/,
    );
    await rejects(
      { serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'I', config: { baseUrl: 'https://i.example.com', apiKey: 'k', defaultLinkType: 'gs1:pip' } },
      400,
      /^config\.defaultLinkType: must be one of untp:dpp/,
    );
  });

  it('400 for config URLs that are not public http(s) URLs (private allowed only by the setting)', async () => {
    for (const baseUrl of ['http://127.0.0.1:3332', 'http://10.0.0.5', 'http://localhost:3000', 'http://[::1]/', 'ftp://vc.example.com', 'https://user:pw@vc.example.com', 'not a url']) {
      await rejects(vcBody({ config: { baseUrl, apiKey: 'k' } }), 400, /^config\.baseUrl: /);
    }
    const open = await (await import('../../test/rig/test-app.ts')).startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
    try {
      const res = await open.call('POST', '/api/v1/services', { token: await open.token('tenantA'), body: vcBody({ config: { baseUrl: 'http://127.0.0.1:3332', apiKey: 'k' } }) });
      expect(res.status).toBe(201);
    } finally {
      await open.close();
    }
  });
});

describe('GET /services query rules', () => {
  it('400 for unknown filter values, repeated parameters and a limit over the maximum', async () => {
    for (const [query, error] of [
      ['serviceType=EMAIL', /^serviceType: must be one of IDR, STORAGE, VC/],
      ['adapterType=VCKIT', /^adapterType: must be one of/],
      ['serviceType=VC&serviceType=IDR', /serviceType/],
      ['limit=100000', /^limit: must not exceed the maximum/],
    ] as const) {
      const res = await t.call('GET', `/api/v1/services?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatch(error);
    }
  });
});

describe('PATCH and DELETE rules', () => {
  it('system defaults are read-only: PATCH and DELETE are 403 and change nothing', async () => {
    const before = (await t.call('GET', `/api/v1/services/${SYSTEM_SERVICE_IDS.STORAGE}`, { token })).body;
    const patched = await t.call('PATCH', `/api/v1/services/${SYSTEM_SERVICE_IDS.STORAGE}`, { token, body: { name: 'Mine now' } });
    expect(patched.status).toBe(403);
    expect(patched.body.code).toBe('SYSTEM_DEFAULT_READ_ONLY');
    for (const query of ['', '?force=true', '?force=banana']) {
      const deleted = await t.call('DELETE', `/api/v1/services/${SYSTEM_SERVICE_IDS.STORAGE}${query}`, { token });
      expect(deleted.status, query).toBe(query === '?force=banana' ? 400 : 403);
    }
    expect((await t.call('GET', `/api/v1/services/${SYSTEM_SERVICE_IDS.STORAGE}`, { token })).body).toEqual(before);
  });

  it('PATCH: 400 without a recognised field, for null name, for a merged config that no longer fits; nothing changes', async () => {
    const made = (await t.call('POST', '/api/v1/services', { token, body: vcBody() })).body;
    for (const [body, error] of [
      [{ colour: 'red' }, /at least one of/],
      [{ name: null }, /^name: must not be null/],
      [{ config: { apiVersion: '' } }, /^config\.apiVersion: /],
      [{ config: { baseUrl: 'http://192.168.1.1' } }, /^config\.baseUrl: /],
      [{ isPrimary: null }, /^isPrimary: must not be null/],
    ] as const) {
      const res = await t.call('PATCH', `/api/v1/services/${made.id}`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
    expect((await t.call('GET', `/api/v1/services/${made.id}`, { token })).body).toEqual(made);
  });

  it('DELETE: force must be exactly true or false (400 naming it); unknown ids are 404', async () => {
    const made = (await t.call('POST', '/api/v1/services', { token, body: vcBody() })).body;
    for (const force of ['TRUE', '1', 'yes', '']) {
      const res = await t.call('DELETE', `/api/v1/services/${made.id}?force=${force}`, { token });
      expect(res.status, force).toBe(400);
      expect(res.body.error).toMatch(/^force: /);
    }
    expect((await t.call('GET', `/api/v1/services/${made.id}`, { token })).status).toBe(200);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await t.call(method, '/api/v1/services/nope', { token, body: method === 'PATCH' ? { name: 'x' } : undefined });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Service instance not found', code: 'NOT_FOUND' });
    }
  });
});
