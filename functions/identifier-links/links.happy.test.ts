import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dppLink, registerGs1, startLinkWorld, type LinkWorld } from './links.test-setup.ts';

let w: LinkWorld;
beforeAll(async () => {
  w = await startLinkWorld();
});
afterAll(() => w.close());

const base = () => `/api/v1/identifiers/${w.identifier.id}/links`;

describe('identifier links', () => {
  it('OpenAPI lists the statuses each link route can return', async () => {
    const doc = (await w.t.call('GET', '/api-docs/openapi.json')).body;
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort();
    const one = '/api/v1/identifiers/{id}/links/{linkId}';
    expect(statuses('/api/v1/identifiers/{id}/links', 'post')).toEqual(['201', '400', '401', '403', '404', '409', '413', '422', '500', '502']);
    expect(statuses('/api/v1/identifiers/{id}/links', 'get')).toEqual(['200', '400', '401', '403', '404', '500']);
    expect(statuses(one, 'get')).toEqual(['200', '401', '403', '404', '500', '502']);
    expect(statuses(one, 'patch')).toEqual(['200', '400', '401', '403', '404', '409', '413', '422', '500', '502']);
    expect(statuses(one, 'delete')).toEqual(['204', '401', '403', '404', '500', '502']);
  });

  it('publishes to the registrar’s resolver in resolver v4 terms and records each link locally', async () => {
    const res = await w.t.call('POST', base(), {
      token: w.token,
      body: {
        description: 'Widget',
        links: [
          dppLink({ href: 'HTTPS://Example.COM:443/dpp/%7e1', encryptionMethod: 'none', accessRole: ['untp:accessRole#Customer'], additionalRels: ['alternate'], public: true, context: 'ignored', default: true, method: 'GET' }),
          dppLink({ href: 'https://example.com/dcc/1', rel: 'untp:dcc', hreflang: undefined }),
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toMatchObject({ identifierId: w.identifier.id, qualifierPath: '/', description: 'Widget', idrLinkId: expect.any(String) });
    expect(res.body[0].published).toEqual({
      href: 'https://example.com/dpp/%7e1',
      rel: 'untp:dpp',
      type: 'text/html',
      title: 'Product passport',
      hreflang: ['en'],
      encryptionMethod: 'none',
      accessRole: ['untp:accessRole#Customer'],
      additionalRels: ['alternate'],
      public: true,
    });
    const sent = w.idr.calls.find((c) => c.method === 'POST' && c.path === '/api/v4/resolver')!.body as Record<string, any>;
    expect(sent).toMatchObject({ namespace: 'gs1', identificationKeyType: '01', identificationKey: w.identifier.value, description: 'Widget' });
    expect(sent.responses[0]).toMatchObject({ linkType: 'untp:dpp', targetUrl: 'https://example.com/dpp/%7e1', mimeType: 'text/html', title: 'Product passport', encryptionMethod: 'none', rel: ['alternate'], context: 'au' });
    expect(sent.responses[1]).not.toHaveProperty('encryptionMethod');
    expect(sent.responses[1]).not.toHaveProperty('hreflang');
    expect(JSON.stringify(sent)).not.toContain('ignored');

    const list = await w.t.call('GET', `${base()}?limit=1`, { token: w.token });
    expect(list.body.pagination).toMatchObject({ total: 2, limit: 1, hasMore: true });
  });

  it('GET merges live data with the local record; PATCH updates upstream and locally; DELETE removes both', async () => {
    const [record] = (await w.t.call('POST', base(), { token: w.token, body: { links: [dppLink({ href: 'https://example.com/dpp/2' })] } })).body;
    const one = await w.t.call('GET', `${base()}/${record.idrLinkId}`, { token: w.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ link: { linkId: record.idrLinkId, targetUrl: 'https://example.com/dpp/2' }, localRecord: { id: record.id } });
    expect(one.body).not.toHaveProperty('desync');

    const patched = await w.t.call('PATCH', `${base()}/${record.idrLinkId}`, { token: w.token, body: { title: 'New title', href: 'https://example.com/dpp/2b' } });
    expect(patched.status).toBe(200);
    expect(patched.body.published).toMatchObject({ title: 'New title', href: 'https://example.com/dpp/2b' });
    expect(w.idr.links.get(record.idrLinkId)).toMatchObject({ title: 'New title', targetUrl: 'https://example.com/dpp/2b' });

    expect((await w.t.call('DELETE', `${base()}/${record.idrLinkId}`, { token: w.token })).status).toBe(204);
    expect(w.idr.links.has(record.idrLinkId)).toBe(false);
    expect((await w.t.call('GET', `${base()}/${record.idrLinkId}`, { token: w.token })).status).toBe(404);
  });

  it('desync: upstream lost the link — GET reports it, PATCH is a 409 with desync, DELETE still removes the record', async () => {
    const [record] = (await w.t.call('POST', base(), { token: w.token, body: { links: [dppLink({ href: 'https://example.com/dpp/3' })] } })).body;
    w.idr.links.delete(record.idrLinkId);
    const one = await w.t.call('GET', `${base()}/${record.idrLinkId}`, { token: w.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ link: null, desync: true, warning: expect.any(String), localRecord: { id: record.id } });
    const patched = await w.t.call('PATCH', `${base()}/${record.idrLinkId}`, { token: w.token, body: { title: 'x' } });
    expect(patched.status).toBe(409);
    expect(patched.body).toMatchObject({ desync: true, error: expect.any(String) });
    expect((await w.t.call('DELETE', `${base()}/${record.idrLinkId}`, { token: w.token })).status).toBe(204);
    expect((await w.t.call('GET', `${base()}/${record.idrLinkId}`, { token: w.token })).status).toBe(404);
  });

  // Last: it removes the registrar's resolver instance.
  it('a link whose resolver instance was removed is out of reach: desync, never asked of another resolver', async () => {
    const { startIdrDouble } = await import('../../test/doubles/idr-double.ts');
    const other = await startIdrDouble();
    try {
      await registerGs1(other);
      const spare = await w.t.call('POST', '/api/v1/services', {
        token: w.token,
        body: { serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'Spare', isPrimary: true, config: { baseUrl: other.url, apiKey: other.apiKey } },
      });
      const [record] = (await w.t.call('POST', base(), { token: w.token, body: { links: [dppLink({ href: 'https://example.com/dpp/gone-instance' })] } })).body;
      const instanceId = record.idrServiceInstanceId;
      expect((await w.t.call('DELETE', `/api/v1/services/${instanceId}?force=true`, { token: w.token })).status).toBe(204);
      const before = other.calls.length;
      const one = await w.t.call('GET', `${base()}/${record.idrLinkId}`, { token: w.token });
      expect(one.body).toMatchObject({ link: null, desync: true, localRecord: { idrServiceInstanceId: null } });
      expect((await w.t.call('PATCH', `${base()}/${record.idrLinkId}`, { token: w.token, body: { title: 'x' } })).status).toBe(409);
      expect((await w.t.call('DELETE', `${base()}/${record.idrLinkId}`, { token: w.token })).status).toBe(204);
      expect(other.calls.length).toBe(before);
      expect(spare.status).toBe(201);
    } finally {
      await other.close();
    }
  });

});
