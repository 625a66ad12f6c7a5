import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierLinks } from '../../db/schema/index.ts';
import { dppLink, startLinkWorld, type LinkWorld } from './links.test-setup.ts';

/** Issue 12 items 1, 2, 4, 5, 8 and 11: what the resolver 4.0.0 would store wrongly is refused first. */
let w: LinkWorld;
beforeAll(async () => {
  w = await startLinkWorld();
});
afterAll(() => w.close());

const base = () => `/api/v1/identifiers/${w.identifier.id}/links`;
const publish = (body: unknown) => w.t.call('POST', base(), { token: w.token, body });
const recorded = async () => (await w.t.db.select({ n: count() }).from(identifierLinks))[0]!.n;
const registrations = () => w.idr.calls.filter((c) => c.method === 'POST' && c.path === '/api/v4/resolver').length;
const upstream = (href: string) => [...w.idr.links.values()].filter((l) => l.targetUrl === href);

/** Refused before anything is sent upstream or recorded. */
const refusedFirst = async (body: unknown, status: number, error: RegExp) => {
  const [before, sent] = [await recorded(), registrations()];
  const res = await publish(body);
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatch(error);
  expect(await recorded()).toBe(before);
  expect(registrations()).toBe(sent);
  return res;
};

describe('1. the same link twice', () => {
  it('within one request is a 400 naming the later index; nothing is published', async () => {
    await refusedFirst(
      { links: [dppLink({ href: 'https://example.com/twice' }), dppLink({ href: 'https://EXAMPLE.com/twice', title: 'Another title' })] },
      400,
      /^links\[1\]: the same href, rel and type as links\[0\]$/,
    );
    expect(upstream('https://example.com/twice')).toEqual([]);
  });

  it('already published for the identifier and qualifier path is a 409 naming the index', async () => {
    expect((await publish({ links: [dppLink({ href: 'https://example.com/once' })] })).status).toBe(201);
    const res = await refusedFirst(
      { links: [dppLink({ href: 'https://example.com/new-one' }), dppLink({ href: 'https://example.com/once' })] },
      409,
      /^links\[1\]: already published for this identifier and qualifier path/,
    );
    expect(res.body.code).toBe('LINK_ALREADY_PUBLISHED');
    expect(upstream('https://example.com/once')).toHaveLength(1);
    expect(upstream('https://example.com/new-one')).toEqual([]);
    // Another qualifier path is another document: the same link is welcome there.
    expect((await publish({ qualifierPath: '/10/A1', links: [dppLink({ href: 'https://example.com/once' })] })).status).toBe(201);
  });
});

describe('2. qualifier paths against the scheme', () => {
  it('keys must be the scheme’s qualifier keys, even where the resolver knows a shortcode for them', async () => {
    // An operator's gs1 registration names ai 10 `lot`: the resolver would store `/lot/LOT2` and then not list it.
    const lot = { title: 'Batch', label: 'LOT', shortcode: 'lot', ai: '10', type: 'Q', regex: '^[A-Za-z0-9]{1,20}$' };
    const res = await fetch(`${w.idr.url}/api/v4/identifiers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.idr.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ namespace: 'gs1', applicationIdentifiers: [lot] }),
    });
    expect(res.status).toBe(200);
    await refusedFirst({ qualifierPath: '/lot/LOT2', links: [dppLink({ href: 'https://example.com/lot2' })] }, 400, /^qualifierPath: 'lot' is not a qualifier key of the scheme \(its keys: 10, 21\)$/);
    expect(upstream('https://example.com/lot2')).toEqual([]);
    await refusedFirst({ qualifierPath: '/17/261231', links: [dppLink()] }, 400, /^qualifierPath: '17' is not a qualifier key/);
    await refusedFirst({ qualifierPath: '/10/L_1', links: [dppLink()] }, 400, /^qualifierPath: value 'L_1' of '10' must match the qualifier's validationPattern/);
    await refusedFirst({ qualifierPath: '/10/A/10/B', links: [dppLink()] }, 400, /^qualifierPath: qualifier key '10' is given twice/);
  });

  it('keys are put in the scheme’s order, so both spellings address one document', async () => {
    const first = await publish({ qualifierPath: '/21/S1/10/L1', links: [dppLink({ href: 'https://example.com/ordered' })] });
    expect(first.status).toBe(201);
    expect(first.body[0].qualifierPath).toBe('/10/L1/21/S1');
    expect(w.idr.links.get(first.body[0].idrLinkId)).toMatchObject({ documentKey: `gs1/01/${w.identifier.value}/10/L1/21/S1` });
    const again = await publish({ qualifierPath: '/10/L1/21/S1', links: [dppLink({ href: 'https://example.com/ordered' })] });
    expect(again).toMatchObject({ status: 409, body: { code: 'LINK_ALREADY_PUBLISHED' } });
  });
});

describe('4. rels the resolver manages itself', () => {
  it('predecessor-version in additionalRels is a 400 naming the entry, on publish and on PATCH', async () => {
    await refusedFirst(
      { links: [dppLink({ href: 'https://example.com/rels', additionalRels: ['alternate', 'predecessor-version'] })] },
      400,
      /^links\[0\]\.additionalRels\[1\]: predecessor-version is managed by the identity resolver/,
    );
    const [record] = (await publish({ links: [dppLink({ href: 'https://example.com/rels', additionalRels: ['alternate'] })] })).body;
    const patched = await w.t.call('PATCH', `${base()}/${record.idrLinkId}`, { token: w.token, body: { additionalRels: ['Predecessor-Version'] } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatch(/^additionalRels\[0\]: predecessor-version is managed/);
    expect(w.idr.links.get(record.idrLinkId)!.rel).toEqual(['alternate']);
    const [local] = await w.t.db.select().from(identifierLinks).where(eq(identifierLinks.id, record.id));
    expect((local!.published as { additionalRels: string[] }).additionalRels).toEqual(['alternate']);
  });
});

describe('5. the document’s description', () => {
  it('a publish without description keeps the one the resolver holds; only an explicit one changes it', async () => {
    const document = `gs1/01/${w.identifier.value}/10/D1`;
    expect((await publish({ qualifierPath: '/10/D1', description: 'Widget, batch D1', links: [dppLink({ href: 'https://example.com/d1' })] })).status).toBe(201);
    expect(w.idr.descriptions.get(document)).toBe('Widget, batch D1');
    const without = await publish({ qualifierPath: '/10/D1', links: [dppLink({ href: 'https://example.com/d1/dcc', rel: 'untp:dcc' })] });
    expect(without.status).toBe(201);
    expect(w.idr.descriptions.get(document)).toBe('Widget, batch D1');
    expect((await publish({ qualifierPath: '/10/D1', description: 'Renamed', links: [dppLink({ href: 'https://example.com/d1/dte', rel: 'untp:dte' })] })).status).toBe(201);
    expect(w.idr.descriptions.get(document)).toBe('Renamed');
  });
});

describe('8 and 11. the resolver’s refusals, readable', () => {
  it.each([
    [{ hreflang: ['es-419'] }, /^The identity resolver refused the link: links\[0\]\.hreflang: /],
    [{ hreflang: ['en', 'x-default'] }, /^The identity resolver refused the link: links\[0\]\.hreflang: /],
    [{ hreflang: ['zh-Hant-TW'] }, /^The identity resolver refused the link: links\[0\]\.hreflang: /],
    [{ type: 'text/html; charset=utf-8' }, /^The identity resolver refused the link: links\[0\]\.type: /],
    [{ rel: 'untp:nope' }, /^The identity resolver refused the link: links\[0\]\.rel: Invalid link type 'untp:nope'$/],
  ])('%j is 422 IDR_REJECTED in our field names, nothing recorded', async (override, error) => {
    const before = await recorded();
    const res = await publish({ links: [dppLink({ href: 'https://example.com/refused', ...override })] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'IDR_REJECTED', error: expect.stringMatching(error) });
    expect(res.body.error).not.toMatch(/[{}]|responses\./);
    expect(await recorded()).toBe(before);
    expect(upstream('https://example.com/refused')).toEqual([]);
  });
});
