import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierSchemes, registrars } from '../../db/schema/index.ts';
import {
  insertIdentifier,
  insertScheme,
  insertServiceInstance,
  SYSTEM_SERVICE_IDS,
} from '../../test/rig/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
const gs1 = { name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org' };

beforeAll(async () => {
  t = await startTestApp();
  token = await t.token('tenantA');
});
afterAll(() => t.close());

const create = (body: unknown) => t.call('POST', '/api/v1/registrars', { token, body });
const patch = (id: string, body: unknown) => t.call('PATCH', `/api/v1/registrars/${id}`, { token, body });
const countRegistrars = async () => (await t.db.select().from(registrars)).length;
const expect400 = (res: { status: number; body: { error: string; code?: string } }, field: string) => {
  expect(res.status).toBe(400);
  expect(res.body.error.startsWith(`${field}: `)).toBe(true);
  expect(res.body.code).toBe('VALIDATION_FAILED');
};

describe('POST /registrars validation', () => {
  it.each(['name', 'namespace', 'url'])('400 naming %s when it is missing', async (field) => {
    const body: Record<string, string> = { ...gs1 };
    delete body[field];
    const res = await create(body);
    expect400(res, field);
    expect(res.body.error).toContain('required');
  });

  it.each(['name', 'namespace', 'url', 'idrServiceInstanceId'])('400 naming %s when it is explicitly null', async (field) => {
    const before = await countRegistrars();
    const res = await create({ ...gs1, [field]: null });
    expect400(res, field);
    expect(res.body.error).toBe(`${field}: must not be null`);
    expect(await countRegistrars()).toBe(before);
  });

  it.each([
    ['name', ''],
    ['name', '   '],
    ['namespace', '\t \n'],
    ['url', '  '],
  ])('400 naming %s for empty or whitespace-only text %j', async (field, value) => {
    expect400(await create({ ...gs1, [field]: value }), field);
  });

  it.each([
    ['name', 42],
    ['namespace', ['gs1']],
    ['url', { href: 'https://gs1.org' }],
    ['idrServiceInstanceId', 7],
  ])('400 naming %s for a value of the wrong type', async (field, value) => {
    expect400(await create({ ...gs1, [field]: value }), field);
  });

  it.each([
    [' https://www.gs1.org', 'leading or trailing whitespace'],
    ['https://www.gs1.org\n', 'leading or trailing whitespace'],
    ['not a url', 'absolute http or https URL'],
    ['/relative/path', 'absolute http or https URL'],
    ['ftp://files.gs1.org', 'http or https'],
    ['javascript:alert(1)', 'http or https'],
    ['https://user:pass@gs1.org', 'username or password'],
    ['http://127.0.0.1:8080', 'private or reserved'],
    ['http://10.1.2.3', 'private or reserved'],
    ['http://192.168.0.10', 'private or reserved'],
    ['http://169.254.169.254/latest/meta-data', 'private or reserved'],
    ['http://[::1]/', 'private or reserved'],
    ['http://[fd00::1]/', 'private or reserved'],
    ['http://[::ffff:127.0.0.1]/', 'private or reserved'],
    ['http://0x7f000001/', 'private or reserved'],
    ['http://localhost:3000', 'local host name'],
    ['http://api.localhost', 'local host name'],
  ])('400 naming url for %j', async (url, reason) => {
    const res = await create({ ...gs1, url });
    expect400(res, 'url');
    expect(res.body.error).toContain(reason);
  });

  it('400 for a body that is not an object', async () => {
    expect((await create([gs1])).status).toBe(400);
    expect((await create('GS1')).status).toBe(400);
  });
});

describe('idrServiceInstanceId references', () => {
  it('404 for an unknown instance, and the same 404 for another tenant’s instance', async () => {
    await t.call('GET', '/api/v1/registrars', { token: await t.token('tenantB') });
    const foreign = await insertServiceInstance(t.db, await t.tenantOf('tenantB'), 'IDR');
    const missing = await create({ ...gs1, idrServiceInstanceId: 'does-not-exist' });
    const other = await create({ ...gs1, idrServiceInstanceId: foreign.id });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: 'idrServiceInstanceId: service instance not found',
      code: 'SERVICE_INSTANCE_NOT_FOUND',
    });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(missing.body);
  });

  it('400 when the instance is not an IDR instance', async () => {
    const res = await create({ ...gs1, idrServiceInstanceId: SYSTEM_SERVICE_IDS.STORAGE });
    expect400(res, 'idrServiceInstanceId');
  });

  it('404 on PATCH for an inaccessible instance, leaving the registrar unchanged', async () => {
    const registrar = (await create(gs1)).body;
    const res = await patch(registrar.id, { idrServiceInstanceId: 'nope', name: 'Changed' });
    expect(res.status).toBe(404);
    expect((await t.call('GET', `/api/v1/registrars/${registrar.id}`, { token })).body.name).toBe('GS1');
  });
});

describe('PATCH /registrars/{id} validation', () => {
  it('400 when no recognised field is present', async () => {
    const registrar = (await create(gs1)).body;
    for (const body of [{}, { colour: 'blue' }, { schemes: [] }]) {
      const res = await patch(registrar.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('at least one of name, namespace, url, idrServiceInstanceId');
    }
  });

  it.each(['name', 'namespace', 'url'])('400 for null %s (cannot be cleared)', async (field) => {
    const registrar = (await create(gs1)).body;
    expect400(await patch(registrar.id, { [field]: null }), field);
  });

  it('400 for whitespace-only text, padded or private url', async () => {
    const registrar = (await create(gs1)).body;
    expect400(await patch(registrar.id, { name: '  ' }), 'name');
    expect400(await patch(registrar.id, { namespace: '' }), 'namespace');
    expect400(await patch(registrar.id, { url: 'https://gs1.org ' }), 'url');
    expect400(await patch(registrar.id, { url: 'http://192.168.1.1' }), 'url');
    const after = await t.call('GET', `/api/v1/registrars/${registrar.id}`, { token });
    expect(after.body).toMatchObject(gs1);
  });

  it('404 for an unknown id', async () => {
    const res = await patch('unknown-id', { name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Registrar not found', code: 'NOT_FOUND' });
  });
});

describe('GET and DELETE of unknown ids', () => {
  it('404 with the error body', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await t.call(method, '/api/v1/registrars/unknown-id', { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Registrar not found', code: 'NOT_FOUND' });
    }
  });
});

describe('DELETE /registrars/{id} with identifiers', () => {
  it('409 when a scheme has identifiers, and nothing is removed', async () => {
    const tenantId = await t.tenantOf('tenantA');
    const registrar = (await create(gs1)).body;
    const used = await insertScheme(t.db, { tenantId, registrarId: registrar.id, primaryKey: '01' });
    const unused = await insertScheme(t.db, { tenantId, registrarId: registrar.id, primaryKey: 'gln' });
    await insertIdentifier(t.db, tenantId, used.id);
    const res = await t.call('DELETE', `/api/v1/registrars/${registrar.id}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('REGISTRAR_IN_USE');
    expect(res.body.error).toContain('identifiers');
    const schemes = await t.db.select().from(identifierSchemes).where(eq(identifierSchemes.registrarId, registrar.id));
    expect(schemes.map((s) => s.id).sort()).toEqual([used.id, unused.id].sort());
    expect((await t.call('GET', `/api/v1/registrars/${registrar.id}`, { token })).status).toBe(200);
  });
});

describe('FETCH_ALLOW_PRIVATE_URLS', () => {
  it('exactly "true" accepts private addresses; userinfo and other schemes stay refused', async () => {
    const open = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
    try {
      const openToken = await open.token('tenantA');
      const ok = await open.call('POST', '/api/v1/registrars', {
        token: openToken,
        body: { ...gs1, url: 'http://10.0.0.5:8080/registry' },
      });
      expect(ok.status).toBe(201);
      const userinfo = await open.call('POST', '/api/v1/registrars', {
        token: openToken,
        body: { ...gs1, url: 'http://u:p@10.0.0.5/' },
      });
      expect(userinfo.status).toBe(400);
    } finally {
      await open.close();
    }
  });

  it('any value other than exactly "true" keeps protection on', async () => {
    const strict = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'TRUE' } });
    try {
      const res = await strict.call('POST', '/api/v1/registrars', {
        token: await strict.token('tenantA'),
        body: { ...gs1, url: 'http://10.0.0.5/' },
      });
      expect(res.status).toBe(400);
    } finally {
      await strict.close();
    }
  });
});
