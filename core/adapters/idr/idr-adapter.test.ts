import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdrDouble, type IdrDouble } from '../../../test/doubles/idr-double.ts';
import { createGuardedFetch } from '../../net/guarded-fetch.ts';
import { AdapterError } from '../adapter-errors.ts';
import { createIdrAdapter, type IdrAdapter } from './idr-adapter.ts';
import { IdrError } from './idr-errors.ts';

let idr: IdrDouble;
let adapter: IdrAdapter;
const fetcher = createGuardedFetch({ allowPrivate: true, userAgent: 'css-test', timeoutMs: 1000 });
const config = (overrides = {}) => ({
  baseUrl: idr.url,
  apiKey: idr.apiKey,
  apiVersion: '4.0',
  defaultLinkType: 'untp:dpp',
  defaultMimeType: 'text/html',
  defaultLanguage: 'en',
  defaultContext: 'au',
  defaultFwqs: false,
  ...overrides,
});
const document = { namespace: 'gs1', identificationKeyType: 'gtin', identificationKey: '09520123456788', qualifierPath: '/' };
const registration = (targetUrl: string) => ({
  ...document,
  description: 'Widget',
  links: [{ linkType: 'untp:dpp', title: 'Passport', targetUrl, mimeType: 'text/html', context: 'au', hreflang: ['en'] }],
});

beforeAll(async () => {
  idr = await startIdrDouble();
  adapter = createIdrAdapter(config(), fetcher);
  await adapter.registerScheme({
    namespace: 'gs1',
    applicationIdentifiers: [{ title: 'GTIN', label: 'GTIN', shortcode: 'gtin', ai: '01', type: 'I', regex: '\\d{14}', qualifiers: ['10'] }],
  });
});
afterAll(() => idr.close());

describe('IDR adapter against the resolver double', () => {
  it('speaks v4: Bearer key, /api/v4 prefix everywhere, title and hreflang[]', async () => {
    await adapter.registerLinks(registration('https://example.com/dpp/1'));
    const [link] = await adapter.listLinks(document);
    expect(link!.linkId).toMatch(/^[0-9a-f-]{36}$/);
    const post = idr.calls.find((c) => c.method === 'POST' && c.path === '/api/v4/resolver')!;
    expect(post.auth).toBe(`Bearer ${idr.apiKey}`);
    expect(post.body).toMatchObject({ namespace: 'gs1', qualifierPath: '/', active: true, responses: [{ title: 'Passport', hreflang: ['en'], defaultLinkType: true, fwqs: false }] });
    expect(JSON.stringify(post.body)).not.toMatch(/linkTitle|ianaLanguage/);
    expect(await adapter.describe()).toMatchObject({ supportedPrimaryKeys: ['all'] });
    expect(idr.calls.at(-1)!.path).toBe('/api/v4/.well-known/resolver');
  });

  it('reads, updates and hard-deletes a link; absent (404 or soft-deleted) reads as undefined', async () => {
    await adapter.registerLinks(registration('https://example.com/dpp/2'));
    const link = (await adapter.listLinks(document)).find((l) => l.targetUrl === 'https://example.com/dpp/2');
    expect(await adapter.getLink(link!.linkId)).toMatchObject({ targetUrl: 'https://example.com/dpp/2' });
    await adapter.updateLink(link!.linkId, { title: 'Renamed' });
    expect((await adapter.getLink(link!.linkId))!.title).toBe('Renamed');
    idr.links.set(link!.linkId, { ...idr.links.get(link!.linkId)!, active: false });
    expect(await adapter.getLink(link!.linkId)).toBeUndefined();
    await adapter.deleteLink(link!.linkId);
    expect(idr.links.has(link!.linkId)).toBe(false);
    expect(await adapter.getLink(link!.linkId)).toBeUndefined();
    await adapter.deleteLink(link!.linkId); // already absent: not an error
  });

  it('upstream 4xx is rejected with its message; 5xx, timeouts and refused connections are unavailable', async () => {
    const dup = await adapter.registerLinks(registration('https://example.com/dpp/3')).then(() => adapter.registerLinks(registration('https://example.com/dpp/3'))).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(AdapterError);
    expect(dup).toMatchObject({ kind: 'rejected', status: 409, message: expect.stringMatching(/^Duplicate responses already exist/) });
    const badType = await adapter.registerLinks({ ...registration('https://example.com/x'), links: [{ ...registration('x').links[0]!, targetUrl: 'https://example.com/x', linkType: 'untp:nope' }] }).catch((e: unknown) => e);
    expect(badType).toMatchObject({ kind: 'rejected', status: 404, problems: [{ field: 'linkType', message: "Invalid link type 'untp:nope'" }] });
    idr.failNext('error');
    expect(await adapter.describe().catch((e) => e)).toMatchObject({ kind: 'unavailable', status: 503 });
    idr.failNext('hang');
    expect(await adapter.describe().catch((e) => e)).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('1000 ms') });
    expect(await createIdrAdapter(config({ baseUrl: 'http://127.0.0.1:1' }), fetcher).describe().catch((e) => e)).toMatchObject({ kind: 'unavailable' });
  });

  it('a 401 or 403 is our configuration (unavailable, reason auth), never the caller’s payload', async () => {
    const wrongKey = await createIdrAdapter(config({ apiKey: 'nope' }), fetcher).getLink('any').catch((e: unknown) => e);
    expect(wrongKey).toBeInstanceOf(IdrError);
    expect(wrongKey).toMatchObject({ kind: 'unavailable', status: 401, reason: 'auth' });
    expect((wrongKey as Error).message).not.toContain('nope');
    idr.failNext('forbidden');
    expect(await adapter.listLinks(document).catch((e: unknown) => e)).toMatchObject({ kind: 'unavailable', status: 403, reason: 'auth' });
  });

  it('tells the resolver’s "not found" answers from a 404 of a route it does not have', async () => {
    await adapter.registerLinks(registration('https://example.com/dpp/404'));
    const link = (await adapter.listLinks(document)).find((l) => l.targetUrl === 'https://example.com/dpp/404')!;
    expect(await adapter.listLinks({ ...document, identificationKey: '09520123456795' })).toEqual([]);
    expect(await adapter.documentDescription({ ...document, identificationKey: '09520123456795' })).toBeUndefined();
    expect(await adapter.documentDescription(document)).toBe('Widget');
    const misplaced = createIdrAdapter(config({ baseUrl: `${idr.url}/idr` }), fetcher);
    for (const call of [() => misplaced.getLink(link.linkId), () => misplaced.deleteLink(link.linkId), () => misplaced.listLinks(document)]) {
      expect(await call().catch((e: unknown) => e)).toMatchObject({ kind: 'unavailable', status: 404, reason: 'route-missing' });
    }
    expect(idr.links.has(link.linkId)).toBe(true);
  });

  it('probe: passes for the right base URL and key; a wrong prefix or key is named', async () => {
    await adapter.probe();
    expect(await createIdrAdapter(config({ baseUrl: `${idr.url}/prefix` }), fetcher).probe().catch((e: unknown) => e)).toMatchObject({ reason: 'route-missing', message: expect.stringMatching(/baseUrl/) });
    expect(await createIdrAdapter(config({ apiKey: 'nope' }), fetcher).probe().catch((e: unknown) => e)).toMatchObject({ reason: 'auth', message: expect.stringMatching(/apiKey/) });
  });
});
