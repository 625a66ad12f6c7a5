import { beforeAll, describe, expect, it } from 'vitest';
import { insertRegistrar } from '../../test/rig/fixtures.ts';
import { securitySuite } from '../../test/rig/security-suite.ts';
import type { TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let tokenA: string;
let tokenB: string;
const gs1 = { name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org' };
const registrarsPath = '/api/v1/registrars';

const context = securitySuite({
  name: '/registrars',
  setup: async (app, a) => ({ registrarOfA: (await app.call('POST', registrarsPath, { token: a, body: gs1 })).body as { id: string } }),
  routes: (f) => [
    ['POST', registrarsPath, gs1],
    ['GET', registrarsPath],
    ['GET', `${registrarsPath}/${f.registrarOfA.id}`],
    ['PATCH', `${registrarsPath}/${f.registrarOfA.id}`, { name: 'Hijacked' }],
    ['DELETE', `${registrarsPath}/${f.registrarOfA.id}`],
  ],
  foreign: (f) => [
    { method: 'GET', path: (id) => `${registrarsPath}/${id}`, id: f.registrarOfA.id },
    { method: 'PATCH', path: (id) => `${registrarsPath}/${id}`, body: () => ({ name: 'Hijacked' }), id: f.registrarOfA.id },
    { method: 'DELETE', path: (id) => `${registrarsPath}/${id}`, id: f.registrarOfA.id },
  ],
  lists: (f) => [{ path: `${registrarsPath}?limit=100`, hidden: [f.registrarOfA.id] }],
  snapshot: async (app, f, a) => (await app.call('GET', `${registrarsPath}/${f.registrarOfA.id}`, { token: a })).body,
});
beforeAll(() => ({ t, tokenA, tokenB } = context()));

describe('authentication beyond bearer tokens', () => {
  it('401 for another authorization scheme or an unknown session cookie', async () => {
    const basic = await t.call('GET', '/api/v1/registrars', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.status).toBe(401);
    const cookie = await t.call('GET', '/api/v1/registrars', { headers: { cookie: 'css_session=forged' } });
    expect(cookie.status).toBe(401);
    expect(cookie.body.code).toBe('UNAUTHENTICATED');
  });
});

describe('system default registrars', () => {
  it('are readable by every tenant but cannot be changed or deleted (403)', async () => {
    const system = await insertRegistrar(t.db);
    for (const token of [tokenA, tokenB]) {
      const read = await t.call('GET', `/api/v1/registrars/${system.id}`, { token });
      expect(read.status).toBe(200);
      expect(read.body.isSystemDefault).toBe(true);
      const patch = await t.call('PATCH', `/api/v1/registrars/${system.id}`, { token, body: { name: 'Mine now' } });
      expect(patch.status).toBe(403);
      expect(patch.body.code).toBe('SYSTEM_DEFAULT_READ_ONLY');
      const del = await t.call('DELETE', `/api/v1/registrars/${system.id}`, { token });
      expect(del.status).toBe(403);
    }
    const after = await t.call('GET', `/api/v1/registrars/${system.id}`, { token: tokenA });
    expect(after.body.name).toBe('System Registrar');
  });
});
