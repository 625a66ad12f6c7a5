import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceInstances } from '../../db/schema/index.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import { startIdrDouble, type IdrDouble } from '../../test/doubles/idr-double.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let tokenA: string;
let instanceOfA: { id: string };
/** IDR instances are probed on create: A's points at the resolver double. */
let resolver: IdrDouble;
const services = '/api/v1/services';
const registrarBody = (id: string) => ({ name: 'R', namespace: 'r', url: 'https://r.example.com', idrServiceInstanceId: id });

const context = securitySuite({
  name: '/services',
  app: { env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } },
  setup: async (app, a) => {
    resolver = await startIdrDouble('secret-of-a');
    const created = await app.call('POST', services, {
      token: a,
      body: { serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'A resolver', config: { baseUrl: resolver.url, apiKey: 'secret-of-a' } },
    });
    if (created.status !== 201) throw new Error(`${created.status} ${created.text}`);
    return { instanceOfA: created.body as { id: string } };
  },
  routes: (f) => [
    ['POST', services, { serviceType: 'VC', adapterType: 'VC_ADAPTER', name: 'x', config: { baseUrl: 'https://vc.example.com', apiKey: 'k' } }],
    ['GET', services],
    ['GET', `${services}/${f.instanceOfA.id}`],
    ['PATCH', `${services}/${f.instanceOfA.id}`, { name: 'hijacked' }],
    ['DELETE', `${services}/${f.instanceOfA.id}?force=true`],
  ],
  foreign: (f) => [
    { method: 'GET', path: (id) => `${services}/${id}`, id: f.instanceOfA.id },
    { method: 'PATCH', path: (id) => `${services}/${id}`, body: () => ({ name: 'hijacked' }), id: f.instanceOfA.id },
    { method: 'DELETE', path: (id) => `${services}/${id}?force=true`, id: f.instanceOfA.id },
    { method: 'POST', path: () => '/api/v1/registrars', body: registrarBody, id: f.instanceOfA.id },
  ],
  lists: (f) => [{ path: `${services}?limit=100`, hidden: [f.instanceOfA.id] }],
  snapshot: async (app, f, a) => (await app.call('GET', `${services}/${f.instanceOfA.id}`, { token: a })).body,
  count: async (db) => (await db.select().from(serviceInstances)).length,
});
afterAll(() => resolver?.close());
beforeAll(() => {
  ({ t, tokenA } = context());
  ({ instanceOfA } = context().fixture);
});

describe('service instance secrets', () => {
  it('never appear in responses', async () => {
    const res = await t.call('GET', `${services}/${instanceOfA.id}`, { token: tokenA });
    expect(res.text).not.toContain('secret-of-a');
    expect(res.body.config.apiKey).toBe('***');
  });
});
