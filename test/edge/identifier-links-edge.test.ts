import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dppLink, startLinkWorld, type LinkWorld } from '../../functions/identifier-links/links.test-setup.ts';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/**
 * Identifier links have no edge entry of their own: their routes are registered on the identifiers group.
 * Its bundle, run in workerd (miniflare) against the Node test app's database and IDP, publishes a link to the
 * resolver double, reads it back merged with the live data, and deletes it upstream and locally.
 */
describe('identifier links through the identifiers edge function in workerd', () => {
  let dir: string;
  let mf: Miniflare;
  let w: LinkWorld;
  const base = 'http://edge.test';

  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${w.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await mf.dispatchFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-edge-links-'));
    await bundleEdgeEntry('functions/identifiers/edge.ts', join(dir, 'identifiers.js'));
    w = await startLinkWorld();
    mf = new Miniflare({
      modules: true,
      modulesRoot: dir,
      scriptPath: join(dir, 'identifiers.js'),
      compatibilityDate: '2026-07-01',
      compatibilityFlags: ['nodejs_compat'],
      bindings: {
        RI_DATABASE_URL: w.t.databaseUrl,
        RI_APP_URL: base,
        DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        AUTH_OIDC_ISSUER: w.t.idp.issuer,
        AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
        AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
        AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
        FETCH_ALLOW_PRIVATE_URLS: 'true',
        LOG_LEVEL: 'error',
      },
    });
    await mf.ready;
  }, 180_000);

  afterAll(async () => {
    await mf?.dispose();
    await w?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('publishes a link to the resolver, reads it back, deletes it upstream and locally', async () => {
    const links = `/api/v1/identifiers/${w.identifier.id}/links`;
    const published = await call('POST', links, { description: 'Widget', links: [dppLink({ href: 'https://example.com/dpp/edge' })] });
    expect(published.status).toBe(201);
    expect(published.body[0]).toMatchObject({ identifierId: w.identifier.id, idrLinkId: expect.any(String), published: { href: 'https://example.com/dpp/edge' } });
    const sent = w.idr.calls.find((c) => c.method === 'POST' && c.path === '/api/v4/resolver')!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ namespace: 'gs1', identificationKey: w.identifier.value, description: 'Widget' });

    const { id, idrLinkId } = published.body[0];
    const read = await call('GET', `${links}/${idrLinkId}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ link: { linkId: idrLinkId, targetUrl: 'https://example.com/dpp/edge' }, localRecord: { id } });

    expect((await call('DELETE', `${links}/${idrLinkId}`)).status).toBe(204);
    expect(w.idr.links.has(idrLinkId)).toBe(false);
    expect((await call('GET', `${links}/${idrLinkId}`)).status).toBe(404);
  });

  it('refuses a link with a bad field, 400 naming it, before anything is sent', async () => {
    const before = w.idr.calls.length;
    const bad = await call('POST', `/api/v1/identifiers/${w.identifier.id}/links`, { links: [dppLink({ href: 'not a url' })] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/href/);
    expect(w.idr.calls.length).toBe(before);
  });
});
