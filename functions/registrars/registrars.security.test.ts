import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRegistrar } from '../../test/rig/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let tokenA: string;
let tokenB: string;
let registrarOfA: { id: string };
const gs1 = { name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org' };

beforeAll(async () => {
  t = await startTestApp();
  [tokenA, tokenB] = await Promise.all([t.token('tenantA'), t.token('tenantB')]);
  registrarOfA = (await t.call('POST', '/api/v1/registrars', { token: tokenA, body: gs1 })).body;
});
afterAll(() => t.close());

const routes = () => [
  ['POST', '/api/v1/registrars', gs1],
  ['GET', '/api/v1/registrars', undefined],
  ['GET', `/api/v1/registrars/${registrarOfA.id}`, undefined],
  ['PATCH', `/api/v1/registrars/${registrarOfA.id}`, { name: 'Hijacked' }],
  ['DELETE', `/api/v1/registrars/${registrarOfA.id}`, undefined],
] as const;

describe('authentication on every registrar route', () => {
  it('401 with { error, message } without a token or cookie', async () => {
    for (const [method, path, body] of routes()) {
      const res = await t.call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorised', message: expect.stringContaining('Authentication required') });
    }
  });

  it('401 with { error, code } for a token that does not verify', async () => {
    const forged = `${tokenA.slice(0, -4)}AAAA`;
    for (const [method, path, body] of routes()) {
      for (const token of ['not-a-jwt', forged]) {
        const res = await t.call(method, path, { body, token });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toEqual({ error: 'Invalid or expired access token', code: 'UNAUTHENTICATED' });
      }
    }
  });

  it('401 for another authorization scheme or an unknown session cookie', async () => {
    const basic = await t.call('GET', '/api/v1/registrars', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.status).toBe(401);
    const cookie = await t.call('GET', '/api/v1/registrars', { headers: { cookie: 'css_session=forged' } });
    expect(cookie.status).toBe(401);
    expect(cookie.body.code).toBe('UNAUTHENTICATED');
  });
});

describe('tenant isolation', () => {
  it("another tenant's registrar is a 404 identical to a missing one, and is left untouched", async () => {
    const missing = await t.call('GET', '/api/v1/registrars/no-such-id', { token: tokenB });
    for (const [method, path, body] of routes().slice(2)) {
      const res = await t.call(method, path, { token: tokenB, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    const stillThere = await t.call('GET', `/api/v1/registrars/${registrarOfA.id}`, { token: tokenA });
    expect(stillThere.status).toBe(200);
    expect(stillThere.body.name).toBe('GS1');
  });

  it("lists never include another tenant's registrars", async () => {
    const listB = await t.call('GET', '/api/v1/registrars?limit=100', { token: tokenB });
    expect(listB.body.data.map((r: { id: string }) => r.id)).not.toContain(registrarOfA.id);
    const listA = await t.call('GET', '/api/v1/registrars?limit=100', { token: tokenA });
    expect(listA.body.data.map((r: { id: string }) => r.id)).toContain(registrarOfA.id);
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
