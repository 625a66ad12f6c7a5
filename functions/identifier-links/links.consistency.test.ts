import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierLinks } from '../../db/schema/index.ts';
import { dppLink, startLinkWorld, type LinkWorld } from './links.test-setup.ts';

/**
 * Issue 12 item 3 (no orphan: a link live upstream always has a local record; publishes to one
 * resolver document are serialised) and issue 17's link updates (a failure on either side leaves both
 * as they were).
 */
let w: LinkWorld;
beforeAll(async () => {
  w = await startLinkWorld();
  // Our own writes fail for hrefs marked `/local-write-fails`: the local insert or update after the resolver's.
  await w.t.db.execute(sql`
    create function refuse_marked_link() returns trigger language plpgsql as $$
    begin
      if new.published->>'href' like '%/local-write-fails%' then raise exception 'local write refused by the test'; end if;
      return new;
    end $$`);
  await w.t.db.execute(sql`create trigger refuse_marked_link before insert or update on identifier_links for each row execute function refuse_marked_link()`);
});
afterAll(() => w.close());

const base = () => `/api/v1/identifiers/${w.identifier.id}/links`;
const publish = (body: unknown) => w.t.call('POST', base(), { token: w.token, body });
const recorded = async () => (await w.t.db.select({ n: count() }).from(identifierLinks))[0]!.n;
const liveUpstream = (href: string) => [...w.idr.links.values()].filter((l) => l.targetUrl === href && l.active);
const documentKey = (qualifierPath: string) => `gs1/01/${w.identifier.value}${qualifierPath}`;

describe('no orphan after the resolver accepted the links', () => {
  it('the read-back fails: what became live is removed upstream before the 502', async () => {
    const before = await recorded();
    w.idr.failNext('error', 1, { method: 'GET', path: '/api/v4/resolver/links', skip: 1 });
    const res = await publish({ links: [dppLink({ href: 'https://example.com/read-back' })] });
    expect(res).toMatchObject({ status: 502, body: { code: 'IDR_UNAVAILABLE' } });
    expect(liveUpstream('https://example.com/read-back')).toEqual([]);
    expect(await recorded()).toBe(before);
  });

  it('the resolver stores the links but its answer never comes (timeout): removed upstream before the 502', async () => {
    const before = await recorded();
    w.idr.failNext('drop', 1, { method: 'POST', path: '/api/v4/resolver' });
    const res = await publish({ links: [dppLink({ href: 'https://example.com/lost-answer' })] });
    expect(res).toMatchObject({ status: 502, body: { code: 'IDR_UNAVAILABLE' } });
    expect(liveUpstream('https://example.com/lost-answer')).toEqual([]);
    expect(await recorded()).toBe(before);
  });

  it('our own insert fails: removed upstream, nothing recorded', async () => {
    const before = await recorded();
    const res = await publish({ links: [dppLink({ href: 'https://example.com/fine' }), dppLink({ href: 'https://example.com/local-write-fails' })] });
    expect(res.status).toBe(500);
    expect(liveUpstream('https://example.com/fine')).toEqual([]);
    expect(liveUpstream('https://example.com/local-write-fails')).toEqual([]);
    expect(await recorded()).toBe(before);
    // Nothing is left behind to make a retry a duplicate.
    expect((await publish({ links: [dppLink({ href: 'https://example.com/fine' })] })).status).toBe(201);
  });
});

describe('concurrent publishes to one resolver document', () => {
  it('five different links at once: all recorded, and the local records are exactly the live links upstream', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => publish({ qualifierPath: '/10/C1', links: [dppLink({ href: `https://example.com/concurrent/${n}` })] })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const local = await w.t.db.select().from(identifierLinks).where(eq(identifierLinks.qualifierPath, '/10/C1'));
    const upstream = [...w.idr.links.values()].filter((l) => l.documentKey === documentKey('/10/C1') && l.active);
    expect(local.map((r) => r.idrLinkId).sort()).toEqual(upstream.map((l) => l.linkId).sort());
    expect(upstream).toHaveLength(5);
  });

  it('the same link five times at once: one 201, four 409, one link upstream and one record', async () => {
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => publish({ qualifierPath: '/10/C2', links: [dppLink({ href: 'https://example.com/same' })] })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const local = await w.t.db.select().from(identifierLinks).where(eq(identifierLinks.qualifierPath, '/10/C2'));
    const upstream = [...w.idr.links.values()].filter((l) => l.documentKey === documentKey('/10/C2'));
    expect(local.map((r) => r.idrLinkId)).toEqual(upstream.map((l) => l.linkId));
    expect(upstream).toHaveLength(1);
  });
});

describe('link updates: both sides or neither', () => {
  const stateOf = async (idrLinkId: string) => {
    const [local] = await w.t.db.select().from(identifierLinks).where(eq(identifierLinks.idrLinkId, idrLinkId));
    const { updatedAt: _u, ...upstream } = w.idr.links.get(idrLinkId)!;
    return { published: local!.published, upstream };
  };

  it('a failing local write sends nothing upstream; a refusal or failure upstream leaves the local record', async () => {
    const [record, other] = (await publish({ links: [dppLink({ href: 'https://example.com/patched' }), dppLink({ href: 'https://example.com/other' })] })).body;
    const before = await stateOf(record.idrLinkId);
    const patch = (body: unknown) => w.t.call('PATCH', `${base()}/${record.idrLinkId}`, { token: w.token, body });

    expect((await patch({ title: 'New', href: 'https://example.com/local-write-fails' })).status).toBe(500);
    expect(await stateOf(record.idrLinkId)).toEqual(before);

    expect(await patch({ hreflang: ['es-419'] })).toMatchObject({ status: 422, body: { code: 'IDR_REJECTED', error: expect.stringMatching(/: hreflang: /) } });
    expect(await stateOf(record.idrLinkId)).toEqual(before);

    w.idr.failNext('error', 1, { method: 'PUT' });
    expect(await patch({ title: 'While down' })).toMatchObject({ status: 502, body: { code: 'IDR_UNAVAILABLE' } });
    expect(await stateOf(record.idrLinkId)).toEqual(before);

    const clash = await patch({ href: other.published.href });
    expect(clash).toMatchObject({ status: 409, body: { code: 'LINK_ALREADY_PUBLISHED' } });
    expect(await stateOf(record.idrLinkId)).toEqual(before);

    const ok = await patch({ title: 'Renamed' });
    expect(ok.status).toBe(200);
    expect((await stateOf(record.idrLinkId)).upstream.title).toBe('Renamed');
  });

  it('a DELETE the resolver fails keeps the local record and the link', async () => {
    const [record] = (await publish({ links: [dppLink({ href: 'https://example.com/kept' })] })).body;
    w.idr.failNext('error', 1, { method: 'DELETE' });
    expect((await w.t.call('DELETE', `${base()}/${record.idrLinkId}`, { token: w.token })).status).toBe(502);
    expect(liveUpstream('https://example.com/kept')).toHaveLength(1);
    expect((await w.t.call('GET', `${base()}/${record.idrLinkId}`, { token: w.token })).body).toMatchObject({ localRecord: { id: record.id }, link: { linkId: record.idrLinkId } });
  });
});
