import { namespaceRegistration } from '../../core/identifier-links/system-namespaces.ts';
import { startIdrDouble, type IdrDouble } from '../../test/doubles/idr-double.ts';
import { createIdentifier, createScheme, gtinBody } from '../../test/rig/scheme-fixtures.ts';
import { startTestApp, type AccountName, type TestApp } from '../../test/rig/test-app.ts';

export interface LinkWorld {
  t: TestApp;
  idr: IdrDouble;
  token: string;
  identifier: { id: string; value: string };
  /** The tenant's IDR instance on the double (the registrar's). */
  instanceId: string;
  close(): Promise<void>;
}

/**
 * A test app allowed to reach loopback (the resolver double runs there), a tenant IDR instance on the
 * double, a registrar using it, a GTIN scheme, one identifier, and the namespace registered upstream.
 */
export const startLinkWorld = async (account: AccountName = 'tenantA', env: Record<string, string> = {}): Promise<LinkWorld> => {
  const idr = await startIdrDouble();
  const t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true', ...env } });
  const token = await t.token(account);
  const instance = await t.call('POST', '/api/v1/services', {
    token,
    body: { serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'Double', config: { baseUrl: idr.url, apiKey: idr.apiKey, defaultContext: 'au' } },
  });
  const registrar = await t.call('POST', '/api/v1/registrars', {
    token,
    body: { name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org', idrServiceInstanceId: instance.body.id },
  });
  const scheme = await createScheme(t, token, { registrarId: registrar.body.id });
  const identifier = await createIdentifier(t, token, scheme.id);
  await registerGs1(idr);
  return {
    t,
    idr,
    token,
    identifier,
    instanceId: instance.body.id,
    close: async () => {
      await t.close();
      await idr.close();
    },
  };
};

export const dppLink = (overrides: Record<string, unknown> = {}) => ({
  href: 'https://example.com/dpp/1',
  rel: 'untp:dpp',
  type: 'text/html',
  title: 'Product passport',
  hreflang: ['en'],
  ...overrides,
});

/**
 * What a tenant does before publishing (spec: tenants register their own namespaces): the `gs1`
 * namespace with the fixtures' GTIN-like scheme under each primary key and its qualifiers, through
 * the resolver's API.
 */
export const registerGs1 = async (idr: IdrDouble, primaryKeys = ['01']) => {
  const res = await fetch(`${idr.url}/api/v4/identifiers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${idr.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(namespaceRegistration('gs1', primaryKeys.map((primaryKey) => gtinBody('', { primaryKey })))),
  });
  if (res.status !== 200) throw new Error(`namespace registration: ${res.status} ${await res.text()}`);
};
