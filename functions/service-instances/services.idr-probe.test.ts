import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceInstances } from '../../db/schema/index.ts';
import { startIdrDouble, type IdrDouble } from '../../test/doubles/idr-double.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
let resolver: IdrDouble;
/** A web server that is not a resolver: every path answers 200 with an HTML page. */
let website: Server;
let websiteUrl: string;

beforeAll(async () => {
  resolver = await startIdrDouble();
  website = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome</html>'));
  await new Promise<void>((done) => website.listen(0, '127.0.0.1', () => done()));
  websiteUrl = `http://127.0.0.1:${(website.address() as AddressInfo).port}`;
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  token = await t.token('tenantA');
});
afterAll(async () => {
  await t.close();
  await resolver.close();
  website.closeAllConnections();
  website.close();
});

const idrBody = (config: Record<string, unknown>) => ({ serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'Resolver', config });
const create = (config: Record<string, unknown>) => t.call('POST', '/api/v1/services', { token, body: idrBody(config) });
const count = async () => (await t.db.select().from(serviceInstances)).length;
const storedConfig = async (id: string) => {
  const [row] = await t.db.select().from(serviceInstances).where(eq(serviceInstances.id, id));
  return t.services.secretBox.decryptJson(row!.configEncrypted);
};
const expectRefused = async (config: Record<string, unknown>, status: number, code: string, error: RegExp) => {
  const before = await count();
  const res = await create(config);
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ code, error: expect.stringMatching(error) });
  expect(res.text).not.toContain(resolver.apiKey);
  expect(await count()).toBe(before);
};

describe('IDR instances are probed when created', () => {
  it('an instance whose base URL reaches the resolver with its key is accepted, after asking the resolver', async () => {
    const asked = resolver.calls.length;
    const res = await create({ baseUrl: resolver.url, apiKey: resolver.apiKey });
    expect(res.status).toBe(201);
    expect(resolver.calls.slice(asked).map((c) => c.path)).toContain('/api/v4/.well-known/resolver');
  });

  it('a wrong path prefix is a 400 naming config.baseUrl; nothing is saved', async () => {
    await expectRefused({ baseUrl: `${resolver.url}/resolver`, apiKey: resolver.apiKey }, 400, 'VALIDATION_FAILED', /^config\.baseUrl: does not answer as an identity resolver/);
  });

  it('a server that answers, but not as the resolver, is a 400 naming config.baseUrl', async () => {
    await expectRefused({ baseUrl: websiteUrl, apiKey: 'k' }, 400, 'VALIDATION_FAILED', /^config\.baseUrl: /);
  });

  it('a key the resolver refuses is a 400 naming config.apiKey', async () => {
    await expectRefused({ baseUrl: resolver.url, apiKey: 'not-the-key' }, 400, 'VALIDATION_FAILED', /^config\.apiKey: the identity resolver refused the key/);
  });

  it('a resolver that does not answer is a 502 IDR_UNAVAILABLE; nothing is saved', async () => {
    await expectRefused({ baseUrl: `http://127.0.0.1:${await freePort()}`, apiKey: 'k' }, 502, 'IDR_UNAVAILABLE', /^config\.baseUrl: the identity resolver did not answer$/);
    resolver.failNext('error', 1);
    await expectRefused({ baseUrl: resolver.url, apiKey: resolver.apiKey }, 502, 'IDR_UNAVAILABLE', /^config\.baseUrl: /);
  });
});

describe('IDR instances are probed when their config changes', () => {
  it('a changed base URL with a wrong path prefix is a 400 naming config.baseUrl; the stored config stays', async () => {
    const made = (await create({ baseUrl: resolver.url, apiKey: resolver.apiKey })).body;
    const before = await storedConfig(made.id);
    const res = await t.call('PATCH', `/api/v1/services/${made.id}`, { token, body: { config: { baseUrl: `${resolver.url}/api/v4` } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^config\.baseUrl: /);
    expect(await storedConfig(made.id)).toEqual(before);
  });

  it('a good change is saved; a change of name alone does not ask the resolver', async () => {
    const made = (await create({ baseUrl: resolver.url, apiKey: resolver.apiKey })).body;
    const ok = await t.call('PATCH', `/api/v1/services/${made.id}`, { token, body: { config: { baseUrl: `${resolver.url}/` } } });
    expect(ok.status).toBe(200);
    expect(await storedConfig(made.id)).toMatchObject({ baseUrl: `${resolver.url}/` });
    const asked = resolver.calls.length;
    expect((await t.call('PATCH', `/api/v1/services/${made.id}`, { token, body: { name: 'Renamed' } })).status).toBe(200);
    expect(resolver.calls.length).toBe(asked);
  });
});
