import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dppLink, startLinkWorld, type LinkWorld } from './links.test-setup.ts';

let w: LinkWorld;
let tokenB: string;
let linkId: string;
beforeAll(async () => {
  w = await startLinkWorld();
  tokenB = await w.t.token('tenantB');
  linkId = (await w.t.call('POST', `/api/v1/identifiers/${w.identifier.id}/links`, { token: w.token, body: { links: [dppLink()] } })).body[0].idrLinkId;
});
afterAll(() => w.close());

const routes = () =>
  [
    ['POST', `/api/v1/identifiers/${w.identifier.id}/links`, { links: [dppLink({ href: 'https://example.com/other' })] }],
    ['GET', `/api/v1/identifiers/${w.identifier.id}/links`, undefined],
    ['GET', `/api/v1/identifiers/${w.identifier.id}/links/${linkId}`, undefined],
    ['PATCH', `/api/v1/identifiers/${w.identifier.id}/links/${linkId}`, { title: 'hijack' }],
    ['DELETE', `/api/v1/identifiers/${w.identifier.id}/links/${linkId}`, undefined],
  ] as const;

describe('identifier link security', () => {
  it('401 without a token or with a malformed one; nothing reaches the resolver', async () => {
    const before = w.idr.calls.length;
    for (const [method, path, body] of routes()) {
      expect((await w.t.call(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await w.t.call(method, path, { body, token: 'nope' })).status).toBe(401);
    }
    expect(w.idr.calls.length).toBe(before);
  });

  it("another tenant gets the identifier-not-found 404 on every route; the link is untouched upstream", async () => {
    const before = w.idr.calls.length;
    for (const [method, path, body] of routes()) {
      const res = await w.t.call(method, path, { token: tokenB, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ error: 'Identifier not found', code: 'NOT_FOUND' });
    }
    expect(w.idr.calls.length).toBe(before);
    expect(w.idr.links.get(linkId)).toMatchObject({ title: 'Product passport' });
  });

  it('IDR API keys never appear in link responses', async () => {
    const res = await w.t.call('GET', `/api/v1/identifiers/${w.identifier.id}/links/${linkId}`, { token: w.token });
    expect(res.text).not.toContain(w.idr.apiKey);
  });
});
