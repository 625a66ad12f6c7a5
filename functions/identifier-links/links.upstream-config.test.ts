import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { identifierLinks, serviceInstances } from '../../db/schema/index.ts';
import { dppLink, startLinkWorld, type LinkWorld } from './links.test-setup.ts';

/**
 * Issue 12 items 6 and 7: a resolver that refuses our key, or a base URL that reaches no resolver, is
 * our configuration fault (502 IDR_UNAVAILABLE, logged at warn), never "link gone" nor the caller's refusal.
 */
let w: LinkWorld;
let record: { id: string; idrLinkId: string };
let original: Record<string, unknown>;
const lines: string[] = [];
beforeAll(async () => {
  w = await startLinkWorld('tenantA', { LOG_LEVEL: 'warn' });
  [record] = (await w.t.call('POST', base(), { token: w.token, body: { links: [dppLink({ href: 'https://example.com/configured' })] } })).body;
  const [row] = await w.t.db.select().from(serviceInstances).where(eq(serviceInstances.id, w.instanceId));
  original = (await w.t.services.secretBox.decryptJson(row!.configEncrypted)) as Record<string, unknown>;
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
});
afterEach(() => configure({}));
afterAll(async () => {
  vi.restoreAllMocks();
  await w.close();
});

function base() {
  return `/api/v1/identifiers/${w.identifier.id}/links`;
}
const configure = async (overrides: Record<string, unknown>) =>
  w.t.db
    .update(serviceInstances)
    .set({ configEncrypted: await w.t.services.secretBox.encryptJson({ ...original, ...overrides }) })
    .where(eq(serviceInstances.id, w.instanceId));
const recorded = async () => (await w.t.db.select({ n: count() }).from(identifierLinks))[0]!.n;

/** Every route answers 502 IDR_UNAVAILABLE, and nothing changes on either side. */
const everyRouteIsUnavailable = async () => {
  const before = { recorded: await recorded(), upstream: structuredClone([...w.idr.links.values()]) };
  const calls = [
    w.t.call('POST', base(), { token: w.token, body: { links: [dppLink({ href: 'https://example.com/not-published' })] } }),
    w.t.call('GET', `${base()}/${record.idrLinkId}`, { token: w.token }),
    w.t.call('PATCH', `${base()}/${record.idrLinkId}`, { token: w.token, body: { title: 'Changed' } }),
    w.t.call('DELETE', `${base()}/${record.idrLinkId}`, { token: w.token }),
  ];
  for (const res of await Promise.all(calls)) {
    expect(res.status, res.text).toBe(502);
    expect(res.body.code).toBe('IDR_UNAVAILABLE');
  }
  expect(await recorded()).toBe(before.recorded);
  expect([...w.idr.links.values()]).toEqual(before.upstream);
};

describe('6. the resolver refuses our credentials', () => {
  it('a 401 is 502 on publish, GET, PATCH and DELETE, logged at warn with the instance id and never the key', async () => {
    await configure({ apiKey: 'a-wrong-key-0123' });
    lines.length = 0;
    await everyRouteIsUnavailable();
    const warnings = lines.map((line) => JSON.parse(line)).filter((line) => line.message === 'Identity resolver instance is misconfigured');
    expect(warnings.length).toBeGreaterThanOrEqual(4);
    for (const line of warnings) expect(line).toMatchObject({ level: 'warn', idrServiceInstanceId: w.instanceId, status: 401, reason: 'auth' });
    expect(lines.join('\n')).not.toContain('a-wrong-key-0123');
    expect(lines.join('\n')).not.toContain(w.idr.apiKey);
  });

  it('a 403 (a proxy in front of it) is the same', async () => {
    w.idr.failNext('forbidden', 1, { method: 'GET', path: '/api/v4/resolver/links/' });
    const res = await w.t.call('GET', `${base()}/${record.idrLinkId}`, { token: w.token });
    expect(res).toMatchObject({ status: 502, body: { code: 'IDR_UNAVAILABLE' } });
  });
});

describe('7. a 404 that is not the resolver’s "link not found"', () => {
  it('a wrong path prefix makes no link look desynced and lets no DELETE drop a record', async () => {
    await configure({ baseUrl: `${w.idr.url}/idr` });
    await everyRouteIsUnavailable();
    const res = await w.t.call('GET', `${base()}/${record.idrLinkId}`, { token: w.token });
    expect(res.body).not.toHaveProperty('desync');
    expect(res.body.error).toMatch(/baseUrl/);
  });

  it('the resolver’s own "link not found" still reads as gone (desync), with the right configuration', async () => {
    const [gone] = (await w.t.call('POST', base(), { token: w.token, body: { links: [dppLink({ href: 'https://example.com/gone' })] } })).body;
    w.idr.links.delete(gone.idrLinkId);
    expect((await w.t.call('GET', `${base()}/${gone.idrLinkId}`, { token: w.token })).body).toMatchObject({ link: null, desync: true });
    expect((await w.t.call('DELETE', `${base()}/${gone.idrLinkId}`, { token: w.token })).status).toBe(204);
  });
});
