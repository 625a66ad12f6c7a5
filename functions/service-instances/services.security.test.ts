import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let tokenA: string;
let tokenB: string;
let instanceOfA: { id: string };
let originalOfA: unknown;

beforeAll(async () => {
  t = await startTestApp();
  [tokenA, tokenB] = await Promise.all([t.token('tenantA'), t.token('tenantB')]);
  instanceOfA = (
    await t.call('POST', '/api/v1/services', {
      token: tokenA,
      body: { serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'A resolver', config: { baseUrl: 'https://idr.example.com', apiKey: 'secret-of-a' } },
    })
  ).body;
  originalOfA = (await t.call('GET', `/api/v1/services/${instanceOfA.id}`, { token: tokenA })).body;
});
afterAll(() => t.close());

const routes = () =>
  [
    ['POST', '/api/v1/services', { serviceType: 'VC', adapterType: 'VC_ADAPTER', name: 'x', config: { baseUrl: 'https://vc.example.com', apiKey: 'k' } }],
    ['GET', '/api/v1/services', undefined],
    ['GET', `/api/v1/services/${instanceOfA.id}`, undefined],
    ['PATCH', `/api/v1/services/${instanceOfA.id}`, { name: 'hijacked' }],
    ['DELETE', `/api/v1/services/${instanceOfA.id}?force=true`, undefined],
  ] as const;

describe('service instance security', () => {
  it('401 without a token and with a malformed one on every route; nothing changes', async () => {
    for (const [method, path, body] of routes()) {
      expect((await t.call(method, path, { body })).status, `${method} ${path}`).toBe(401);
      const bad = await t.call(method, path, { body, token: 'not-a-jwt' });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ error: 'Invalid or expired access token', code: 'UNAUTHENTICATED' });
    }
    expect((await t.call('GET', `/api/v1/services/${instanceOfA.id}`, { token: tokenA })).body).toEqual(originalOfA);
  });

  it("another tenant's instance is a 404 identical to a missing one on get, patch and delete; unchanged", async () => {
    for (const [method, body] of [['GET'], ['PATCH', { name: 'hijacked' }], ['DELETE']] as const) {
      const foreign = await t.call(method, `/api/v1/services/${instanceOfA.id}`, { token: tokenB, body });
      const missing = await t.call(method, '/api/v1/services/no-such-instance', { token: tokenB, body });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(missing.body);
    }
    const list = await t.call('GET', '/api/v1/services?limit=100', { token: tokenB });
    expect(list.body.data.map((s: { id: string }) => s.id)).not.toContain(instanceOfA.id);
    expect((await t.call('GET', `/api/v1/services/${instanceOfA.id}`, { token: tokenA })).body).toEqual(originalOfA);
  });

  it("another tenant's instance cannot be referenced from a registrar (404 like a missing one)", async () => {
    const body = (id: string) => ({ name: 'R', namespace: 'r', url: 'https://r.example.com', idrServiceInstanceId: id });
    const foreign = await t.call('POST', '/api/v1/registrars', { token: tokenB, body: body(instanceOfA.id) });
    const missing = await t.call('POST', '/api/v1/registrars', { token: tokenB, body: body('no-such-instance') });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
  });

  it('secrets never appear in responses', async () => {
    const res = await t.call('GET', `/api/v1/services/${instanceOfA.id}`, { token: tokenA });
    expect(res.text).not.toContain('secret-of-a');
    expect(res.body.config.apiKey).toBe('***');
  });
});
