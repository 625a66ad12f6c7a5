import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { startIdrDouble, type IdrDouble } from '../../test/doubles/idr-double.ts';
import { createIdentifier, createRegistrar, createScheme } from '../../test/rig/scheme-fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { dppLink, registerGs1 } from './links.test-setup.ts';

/** Which resolver a link goes to: scheme's instance, else registrar's, else tenant primary, else system default. */
let t: TestApp;
let token: string;
const doubles: Record<'scheme' | 'registrar' | 'primary' | 'system', IdrDouble> = {} as never;

const instance = async (name: string, idr: IdrDouble, isPrimary = false) =>
  (await t.call('POST', '/api/v1/services', {
    token,
    body: { serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name, isPrimary, config: { baseUrl: idr.url, apiKey: idr.apiKey } },
  })).body.id as string;
const publishedTo = (idr: IdrDouble) => idr.calls.filter((c) => c.method === 'POST' && c.path === '/api/v4/resolver').length;

beforeAll(async () => {
  for (const k of ['scheme', 'registrar', 'primary', 'system'] as const) {
    doubles[k] = await startIdrDouble();
    await registerGs1(doubles[k], ['01', '02', '03', '04']);
  }
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  token = await t.token('tenantA');
  // The system default IDR instance points at a double of its own in this test.
  const config = { baseUrl: doubles.system.url, apiKey: doubles.system.apiKey, apiVersion: '4.0', defaultLinkType: 'untp:dpp', defaultMimeType: 'text/html', defaultLanguage: 'en', defaultFwqs: false };
  await t.db.update(serviceInstances).set({ configEncrypted: await t.services.secretBox.encryptJson(config) }).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.IDR));
});
afterAll(async () => {
  await t.close();
  for (const d of Object.values(doubles)) await d.close();
});

const publish = async (identifierId: string, href: string) =>
  t.call('POST', `/api/v1/identifiers/${identifierId}/links`, { token, body: { links: [dppLink({ href })] } });

describe('IDR instance chain', () => {
  it('without any tenant instance the system default is used', async () => {
    const scheme = await createScheme(t, token);
    const id = await createIdentifier(t, token, scheme.id, '00000000000001');
    const res = await publish(id.id, 'https://example.com/system');
    expect(res.status).toBe(201);
    expect(res.body[0].idrServiceInstanceId).toBe(SYSTEM_SERVICE_IDS.IDR);
    expect(publishedTo(doubles.system)).toBe(1);
  });

  it('the tenant primary instance, then the registrar’s, then the scheme’s take precedence in turn', async () => {
    const primaryId = await instance('Primary', doubles.primary, true);
    const registrarInstance = await instance('Registrar resolver', doubles.registrar);
    const schemeInstance = await instance('Scheme resolver', doubles.scheme);

    const plainRegistrar = await createRegistrar(t, token, 'Plain');
    const plainScheme = await createScheme(t, token, { registrarId: plainRegistrar.id, primaryKey: '02' });
    const viaPrimary = await createIdentifier(t, token, plainScheme.id, '00000000000002');
    expect((await publish(viaPrimary.id, 'https://example.com/p')).body[0].idrServiceInstanceId).toBe(primaryId);
    expect(publishedTo(doubles.primary)).toBe(1);

    const registrar = (await t.call('POST', '/api/v1/registrars', {
      token,
      body: { name: 'With resolver', namespace: 'gs1', url: 'https://www.gs1.org', idrServiceInstanceId: registrarInstance },
    })).body;
    const schemeOfRegistrar = await createScheme(t, token, { registrarId: registrar.id, primaryKey: '03' });
    const viaRegistrar = await createIdentifier(t, token, schemeOfRegistrar.id, '00000000000003');
    expect((await publish(viaRegistrar.id, 'https://example.com/r')).body[0].idrServiceInstanceId).toBe(registrarInstance);
    expect(publishedTo(doubles.registrar)).toBe(1);

    const schemeWithOwn = await createScheme(t, token, { registrarId: registrar.id, primaryKey: '04', idrServiceInstanceId: schemeInstance });
    const viaScheme = await createIdentifier(t, token, schemeWithOwn.id, '00000000000004');
    expect((await publish(viaScheme.id, 'https://example.com/s')).body[0].idrServiceInstanceId).toBe(schemeInstance);
    expect(publishedTo(doubles.scheme)).toBe(1);
    expect(publishedTo(doubles.primary)).toBe(1);
    expect(publishedTo(doubles.registrar)).toBe(1);
    expect(publishedTo(doubles.system)).toBe(1);
  });
});
