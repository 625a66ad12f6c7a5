import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierLinks } from '../../db/schema/index.ts';
import { dppLink, startLinkWorld, type LinkWorld } from './links.test-setup.ts';

let w: LinkWorld;
beforeAll(async () => {
  w = await startLinkWorld();
});
afterAll(() => w.close());

const base = () => `/api/v1/identifiers/${w.identifier.id}/links`;
const recorded = async () => (await w.t.db.select({ n: count() }).from(identifierLinks))[0]!.n;
const upstreamPosts = () => w.idr.calls.filter((c) => c.path === '/api/v4/resolver').length;

const rejects = async (body: unknown, status: number, error: RegExp) => {
  const [before, posts] = [await recorded(), upstreamPosts()];
  const res = await w.t.call('POST', base(), { token: w.token, body });
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(res.body.error).toMatch(error);
  expect(await recorded()).toBe(before);
  if (status === 400) expect(upstreamPosts()).toBe(posts);
  return res;
};

describe('publish validation: 400 naming the field, nothing published', () => {
  it.each([
    [{ links: [] }, /^links: must contain at least one link/],
    [{}, /^links: is required/],
    [{ links: [dppLink({ href: 'ftp://example.com/x' })] }, /^links\[0\]\.href: must use http or https/],
    [{ links: [dppLink({ href: 'https://user:pw@example.com/x' })] }, /^links\[0\]\.href: must not contain a username or password/],
    [{ links: [dppLink({ href: '/relative' })] }, /^links\[0\]\.href: must be an absolute http or https URL/],
    [{ links: [dppLink(), dppLink({ rel: '  ' })] }, /^links\[1\]\.rel: must contain a non-whitespace character/],
    [{ links: [dppLink({ type: '' })] }, /^links\[0\]\.type: /],
    [{ links: [dppLink({ encryptionMethod: 'AES-512' })] }, /^links\[0\]\.encryptionMethod: must be one of none, AES-128, AES-256/],
    [{ links: [dppLink({ hreflang: ['en', 'en_AU'] })] }, /^links\[0\]\.hreflang\[1\]: must be a well-formed BCP 47 language tag/],
    [{ links: [dppLink({ hreflang: ['toolongtag1'] })] }, /^links\[0\]\.hreflang\[0\]: /],
    [{ links: [dppLink({ additionalRels: ['ok', ' '] })] }, /^links\[0\]\.additionalRels\[1\]: /],
    [{ links: [dppLink({ accessRole: ['untp:accessRole#Hacker'] })] }, /^links\[0\]\.accessRole\[0\]: must be one of/],
    [{ links: [dppLink()], qualifierPath: '10/LOT' }, /^qualifierPath: /],
  ])('%j', async (body, error) => {
    await rejects(body, 400, error);
  });

  it('well-formed tags pass our validation; ones the resolver v4 does not take (x-default, zh-Hant-TW) are its 422', async () => {
    const ok = await w.t.call('POST', base(), { token: w.token, body: { links: [dppLink({ href: 'https://example.com/tags', hreflang: ['en', 'en-AU'] })] } });
    expect(ok.status).toBe(201);
    for (const tag of ['x-default', 'zh-Hant-TW']) {
      const res = await w.t.call('POST', base(), { token: w.token, body: { links: [dppLink({ href: `https://example.com/${tag}`, hreflang: [tag] })] } });
      expect(res.status, tag).toBe(422);
      expect(res.body.code).toBe('IDR_REJECTED');
    }
  });

  it('private and loopback hrefs are a 400 when FETCH_ALLOW_PRIVATE_URLS is not true', async () => {
    const { startTestApp } = await import('../../test/rig/test-app.ts');
    const strict = await startTestApp();
    try {
      const token = await strict.token('tenantA');
      const scheme = await (await import('../../test/rig/scheme-fixtures.ts')).createScheme(strict, token);
      const identifier = await (await import('../../test/rig/scheme-fixtures.ts')).createIdentifier(strict, token, scheme.id);
      for (const href of ['http://127.0.0.1/x', 'http://10.0.0.1/x', 'http://[fd00::1]/x', 'http://localhost/x', 'http://169.254.169.254/x']) {
        const res = await strict.call('POST', `/api/v1/identifiers/${identifier.id}/links`, { token, body: { links: [dppLink({ href })] } });
        expect(res.status, href).toBe(400);
        expect(res.body.error).toMatch(/^links\[0\]\.href: must not point to/);
      }
    } finally {
      await strict.close();
    }
  });
});

describe('upstream refusals and failures (nothing recorded)', () => {
  it('422 IDR_REJECTED carries the resolver’s message; 502 IDR_UNAVAILABLE when it fails', async () => {
    const res = await rejects({ links: [dppLink({ rel: 'untp:nope', href: 'https://example.com/nope' })] }, 422, /Invalid link type 'untp:nope'/);
    expect(res.body.code).toBe('IDR_REJECTED');
    const tag = await rejects({ links: [dppLink({ href: 'https://example.com/es', hreflang: ['es-419'] })] }, 422, /hreflang/);
    expect(tag.body.code).toBe('IDR_REJECTED');
    w.idr.failNext('error');
    const down = await rejects({ links: [dppLink({ href: 'https://example.com/down' })] }, 502, /unavailable/);
    expect(down.body.code).toBe('IDR_UNAVAILABLE');
  });
});

describe('PATCH and lookups', () => {
  it('PATCH validates like publish and needs a recognised field; unknown links and identifiers are 404', async () => {
    const [record] = (await w.t.call('POST', base(), { token: w.token, body: { links: [dppLink({ href: 'https://example.com/p' })] } })).body;
    for (const [body, error] of [
      [{}, /at least one of/],
      [{ encryptionMethod: 'rot13' }, /^encryptionMethod: /],
      [{ hreflang: ['??'] }, /^hreflang\[0\]: /],
      [{ href: 'https://a:b@example.com' }, /^href: /],
    ] as const) {
      const res = await w.t.call('PATCH', `${base()}/${record.idrLinkId}`, { token: w.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
    expect(w.idr.links.get(record.idrLinkId)).toMatchObject({ targetUrl: 'https://example.com/p' });
    expect((await w.t.call('GET', `${base()}/no-such-link`, { token: w.token })).body).toEqual({ error: 'Link not found', code: 'NOT_FOUND' });
    expect((await w.t.call('GET', '/api/v1/identifiers/nope/links', { token: w.token })).status).toBe(404);
    expect((await w.t.call('GET', `${base()}?limit=0`, { token: w.token })).status).toBe(400);
  });
});
