import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskConfig } from '../../core/service-instances/masking.ts';
import { SYSTEM_SERVICE_IDS } from '../rig/fixtures.ts';
import { startTestApp, type TestApp } from '../rig/test-app.ts';

/** System service instances do not show tenants their internal baseUrl unless the operator allows it. */
const startWith = async (env: Record<string, string> = {}) => {
  const t = await startTestApp({ env });
  return { t, token: await t.token('tenantA') };
};

describe.each([
  ['by default', {}, '***'],
  ['with SYSTEM_SERVICES_SHOW_BASE_URL=true', { SYSTEM_SERVICES_SHOW_BASE_URL: 'true' }, expect.stringMatching(/^http/)],
])('system instances %s', (_, env, shown) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => ({ t, token } = await startWith(env)));
  afterAll(() => t.close());

  it('GET and list show the system baseUrl accordingly; apiKey always masked', async () => {
    const one = await t.call('GET', `/api/v1/services/${SYSTEM_SERVICE_IDS.STORAGE}`, { token });
    expect(one.status).toBe(200);
    expect(one.body.config).toMatchObject({ baseUrl: shown, apiKey: '***' });
    const list = await t.call('GET', '/api/v1/services?serviceType=STORAGE', { token });
    const system = list.body.data.find((s: { id: string }) => s.id === SYSTEM_SERVICE_IDS.STORAGE);
    expect(system.config.baseUrl).toEqual(shown);
  });

  it("a tenant's own instance always shows its baseUrl", async () => {
    const config = { baseUrl: 'https://storage.example.com', apiKey: 'secret', publicBucket: 'documents', privateBucket: 'files' };
    const res = await t.call('POST', '/api/v1/services', { token, body: { serviceType: 'STORAGE', adapterType: 'STORAGE_ADAPTER', name: 'Own', config } });
    expect(res.status, res.text).toBe(201);
    const got = await t.call('GET', `/api/v1/services/${res.body.id}`, { token });
    expect(got.body.config).toMatchObject({ baseUrl: 'https://storage.example.com', apiKey: '***' });
  });
});

describe('maskConfig', () => {
  it('hides baseUrl only when asked', () => {
    expect(maskConfig({ baseUrl: 'http://10.0.0.1', apiKey: 'k' })).toEqual({ baseUrl: 'http://10.0.0.1', apiKey: '***' });
    expect(maskConfig({ baseUrl: 'http://10.0.0.1', apiKey: 'k' }, { hideBaseUrl: true })).toEqual({ baseUrl: '***', apiKey: '***' });
  });
});
