import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dppLink, startLinkWorld, type LinkWorld } from '../../functions/identifier-links/links.test-setup.ts';
import { edgeBindings, startEdgeWorker, type EdgeWorker } from './edge-worker.ts';

/**
 * Identifier links in workerd (miniflare) against the Node test app's database and IDP, through both entries that
 * carry them: their own (`identifier-links`, reached by a gateway's service binding) and the identifiers entry (which
 * registers the same routes and serves them behind zone routes). Each publishes a link to the resolver double, reads
 * it back merged with the live data, deletes it upstream and locally, refuses a bad field before sending anything,
 * and answers another tenant's identifier with 404.
 */
describe.each([
  { group: 'identifier-links', routes: ['*/api/v1/identifiers/*'] },
  { group: 'identifiers', routes: ['*/api/v1/identifiers*'] },
])('identifier links through the $group edge entry in workerd', ({ group, routes }) => {
  let edge: EdgeWorker;
  let w: LinkWorld;
  const call = (method: string, path: string, body?: unknown, token = w.token) => edge.call(method, path, token, body);

  beforeAll(async () => {
    w = await startLinkWorld();
    edge = await startEdgeWorker({ entry: `functions/${group}/edge.ts`, name: group, bindings: edgeBindings({ ...w.t, url: 'http://edge.test' }), routes });
  }, 180_000);

  afterAll(async () => {
    await edge?.close();
    await w?.close();
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

  it("answers another tenant's identifier with 404, sending nothing upstream", async () => {
    const before = w.idr.calls.length;
    const other = await w.t.token('tenantB');
    const links = `/api/v1/identifiers/${w.identifier.id}/links`;
    expect((await call('GET', links, undefined, other)).status).toBe(404);
    expect((await call('POST', links, { links: [dppLink({ href: 'https://example.com/dpp/theirs' })] }, other)).status).toBe(404);
    expect(w.idr.calls.length).toBe(before);
  });
});
