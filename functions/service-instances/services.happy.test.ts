import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { registrars, serviceInstances } from '../../db/schema/index.ts';
import { startIdrDouble, type IdrDouble } from '../../test/doubles/idr-double.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';

let t: TestApp;
let token: string;
/** IDR instances are probed on create: their config points at the resolver double. */
let resolver: IdrDouble;

beforeAll(async () => {
  resolver = await startIdrDouble();
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  token = await t.token('tenantA');
});
afterAll(async () => {
  await t.close();
  await resolver.close();
});

const storageBody = (overrides: Record<string, unknown> = {}) => ({
  serviceType: 'STORAGE',
  adapterType: 'STORAGE_ADAPTER',
  name: 'Our storage',
  config: { baseUrl: 'https://storage.example.com', apiKey: 'super-secret-key', publicBucket: 'pub', privateBucket: 'priv' },
  ...overrides,
});
const create = async (body: unknown) => {
  const res = await t.call('POST', '/api/v1/services', { token, body });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
};

describe('service instances', () => {
  it('creates with defaults filled, config encrypted at rest and the secret masked', async () => {
    const body = await create(storageBody({ description: 'Primary store' }));
    expect(body).toMatchObject({
      serviceType: 'STORAGE',
      adapterType: 'STORAGE_ADAPTER',
      name: 'Our storage',
      description: 'Primary store',
      isPrimary: false,
      isSystemDefault: false,
      config: { baseUrl: 'https://storage.example.com', apiKey: '***', apiVersion: '4.0', publicBucket: 'pub', privateBucket: 'priv' },
    });
    const [row] = await t.db.select().from(serviceInstances).where(eq(serviceInstances.id, body.id));
    expect(row!.configEncrypted).not.toContain('super-secret-key');
    expect(row!.configEncrypted).not.toContain('storage.example.com');
    expect(await t.services.secretBox.decryptJson(row!.configEncrypted)).toMatchObject({ apiKey: 'super-secret-key' });
    const got = await t.call('GET', `/api/v1/services/${body.id}`, { token });
    expect(got.body).toEqual(body);
    expect(got.text).not.toContain('super-secret-key');
  });

  it('lists own instances and the system defaults (read-only, masked) with type filters', async () => {
    const all = await t.call('GET', '/api/v1/services?limit=100', { token });
    const ids = all.body.data.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining(Object.values(SYSTEM_SERVICE_IDS)));
    const system = all.body.data.find((s: { id: string }) => s.id === SYSTEM_SERVICE_IDS.IDR);
    expect(system).toMatchObject({ isSystemDefault: true, isPrimary: true, config: { apiKey: '***' } });
    expect(all.text).not.toContain('test123');
    const idr = await t.call('GET', '/api/v1/services?serviceType=IDR', { token });
    expect(idr.body.data.every((s: { serviceType: string }) => s.serviceType === 'IDR')).toBe(true);
    const vc = await t.call('GET', '/api/v1/services?adapterType=VC_ADAPTER', { token });
    expect(vc.body.data.map((s: { id: string }) => s.id)).toContain(SYSTEM_SERVICE_IDS.VC);
    expect(vc.body.data.every((s: { adapterType: string }) => s.adapterType === 'VC_ADAPTER')).toBe(true);
  });

  it('isPrimary demotes the previous primary of that type only', async () => {
    const first = await create(storageBody({ name: 'First', isPrimary: true }));
    const vc = await create({ serviceType: 'VC', adapterType: 'VC_ADAPTER', name: 'VC', isPrimary: true, config: { baseUrl: 'https://vc.example.com', apiKey: 'k' } });
    const second = await create(storageBody({ name: 'Second', isPrimary: true }));
    expect(second.isPrimary).toBe(true);
    expect((await t.call('GET', `/api/v1/services/${first.id}`, { token })).body.isPrimary).toBe(false);
    expect((await t.call('GET', `/api/v1/services/${vc.id}`, { token })).body.isPrimary).toBe(true);
    const back = await t.call('PATCH', `/api/v1/services/${first.id}`, { token, body: { isPrimary: true } });
    expect(back.body.isPrimary).toBe(true);
    expect((await t.call('GET', `/api/v1/services/${second.id}`, { token })).body.isPrimary).toBe(false);
  });

  it('PATCH shallow-merges config (*** keeps the secret), clears description with null, renames', async () => {
    const made = await create(storageBody({ description: 'd' }));
    const res = await t.call('PATCH', `/api/v1/services/${made.id}`, {
      token,
      body: { name: 'Renamed', description: null, config: { publicBucket: 'new-pub', apiKey: '***' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', description: null, config: { publicBucket: 'new-pub', privateBucket: 'priv', apiKey: '***' } });
    const [row] = await t.db.select().from(serviceInstances).where(eq(serviceInstances.id, made.id));
    expect(await t.services.secretBox.decryptJson(row!.configEncrypted)).toMatchObject({ apiKey: 'super-secret-key', publicBucket: 'new-pub' });
    await t.call('PATCH', `/api/v1/services/${made.id}`, { token, body: { config: { apiKey: 'rotated' } } });
    const [rotated] = await t.db.select().from(serviceInstances).where(eq(serviceInstances.id, made.id));
    expect(await t.services.secretBox.decryptJson(rotated!.configEncrypted)).toMatchObject({ apiKey: 'rotated' });
  });

  it('DELETE: unreferenced goes; referenced is a 409 with counts, force clears the references', async () => {
    const idr = await create({ serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'Resolver', config: { baseUrl: resolver.url, apiKey: resolver.apiKey } });
    expect(idr.config).toMatchObject({ apiVersion: '4.0', defaultFwqs: false });
    // No default link type unless one is named: published credentials take their type's own.
    expect(idr.config.defaultLinkType).toBeUndefined();
    const registrar = await t.call('POST', '/api/v1/registrars', {
      token,
      body: { name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org', idrServiceInstanceId: idr.id },
    });
    expect(registrar.status).toBe(201);
    const blocked = await t.call('DELETE', `/api/v1/services/${idr.id}`, { token });
    expect(blocked.status).toBe(409);
    expect(blocked.body).toMatchObject({ code: 'SERVICE_INSTANCE_IN_USE', references: { dids: 0, registrars: 1, schemes: 0 } });
    expect((await t.call('DELETE', `/api/v1/services/${idr.id}?force=false`, { token })).status).toBe(409);
    expect((await t.call('DELETE', `/api/v1/services/${idr.id}?force=true`, { token })).status).toBe(204);
    const [reg] = await t.db.select().from(registrars).where(eq(registrars.id, registrar.body.id));
    expect(reg!.idrServiceInstanceId).toBeNull();
    expect((await t.call('GET', `/api/v1/services/${idr.id}`, { token })).status).toBe(404);
    // Schemes count too, and force clears them; another tenant's references are neither counted nor touched.
    const idr2 = await create({ serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'Resolver 2', config: { baseUrl: resolver.url, apiKey: resolver.apiKey } });
    const reg2 = (await t.call('POST', '/api/v1/registrars', { token, body: { name: 'R2', namespace: 'r2', url: 'https://r2.example.com' } })).body;
    const scheme = await t.call('POST', '/api/v1/schemes', {
      token,
      body: { registrarId: reg2.id, name: 'S', primaryKey: '01', validationPattern: '^\\d+$', linkTemplate: '/{primaryKey}/{value}', idrServiceInstanceId: idr2.id },
    });
    expect(scheme.status).toBe(201);
    const blocked2 = await t.call('DELETE', `/api/v1/services/${idr2.id}`, { token });
    expect(blocked2.body).toMatchObject({ code: 'SERVICE_INSTANCE_IN_USE', references: { dids: 0, registrars: 0, schemes: 1 } });
    expect((await t.call('DELETE', `/api/v1/services/${idr2.id}?force=true`, { token })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/schemes/${scheme.body.id}`, { token })).body.idrServiceInstanceId).toBeNull();
    const plain = await create(storageBody());
    expect((await t.call('DELETE', `/api/v1/services/${plain.id}`, { token })).status).toBe(204);
  });
});

describe('one primary per service type, as each tenant sees it', () => {
  const primaryOf = async (tok: string, id: string) => {
    const one = (await t.call('GET', `/api/v1/services/${id}`, { token: tok })).body.isPrimary;
    const listed = (await t.call('GET', '/api/v1/services?limit=100', { token: tok })).body.data.find((s: { id: string }) => s.id === id).isPrimary;
    expect(listed, 'the list agrees with the single GET').toBe(one);
    return one;
  };

  it('an own primary makes the system default of that type read isPrimary false for that tenant only', async () => {
    const tokenB = await t.token('tenantB');
    for (const type of ['VC', 'IDR', 'STORAGE'] as const) expect(await primaryOf(tokenB, SYSTEM_SERVICE_IDS[type]), type).toBe(true);
    const body = {
      VC: { serviceType: 'VC', adapterType: 'VC_ADAPTER', name: 'B VC', config: { baseUrl: 'https://vc.example.com', apiKey: 'k' } },
      IDR: { serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'B IDR', config: { baseUrl: resolver.url, apiKey: resolver.apiKey } },
      STORAGE: storageBody({ name: 'B storage' }),
    };
    const own: Record<string, { id: string }> = {};
    for (const type of ['VC', 'IDR', 'STORAGE'] as const) {
      const res = await t.call('POST', '/api/v1/services', { token: tokenB, body: { ...body[type], isPrimary: true } });
      own[type] = res.body;
      expect(await primaryOf(tokenB, SYSTEM_SERVICE_IDS[type]), type).toBe(false);
      expect(await primaryOf(tokenB, own[type]!.id), type).toBe(true);
    }
    // Tenant A has no IDR primary of its own: its view of the system IDR is unchanged.
    expect(await primaryOf(token, SYSTEM_SERVICE_IDS.IDR)).toBe(true);
    await t.call('PATCH', `/api/v1/services/${own.VC!.id}`, { token: tokenB, body: { isPrimary: false } });
    expect(await primaryOf(tokenB, SYSTEM_SERVICE_IDS.VC)).toBe(true);
    expect(await primaryOf(tokenB, SYSTEM_SERVICE_IDS.IDR)).toBe(false);
  });
});
