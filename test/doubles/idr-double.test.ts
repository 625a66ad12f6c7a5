import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdrDouble, type IdrDouble } from './idr-double.ts';

/**
 * The resolver double keeps to contracts/identity-resolver.md where our client could trip over it:
 * registrations are checked against the registered scheme (B.3, B.4) in the contract's order.
 */
let idr: IdrDouble;
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${idr.url}/api/v4${path}`, {
    method,
    headers: { authorization: `Bearer ${idr.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};
const gtin = { title: 'GTIN', label: 'GTIN', shortcode: 'gtin', ai: '01', type: 'I', regex: '(\\d{12,14}|\\d{8})', qualifiers: ['10'] };
const lot = { title: 'Batch', label: 'LOT', shortcode: 'lot', ai: '10', type: 'Q', regex: '[A-Z0-9]{1,20}' };
const response = (overrides: Record<string, unknown> = {}) => ({
  linkType: 'untp:dpp',
  title: 'Passport',
  targetUrl: `https://example.com/${crypto.randomUUID()}`,
  mimeType: 'text/html',
  context: 'au',
  defaultLinkType: true,
  defaultContext: true,
  defaultMimeType: true,
  fwqs: false,
  active: true,
  ...overrides,
});
const register = (overrides: Record<string, unknown> = {}, responses = [response()]) =>
  call('POST', '/resolver', {
    namespace: 'gs1',
    identificationKeyType: 'gtin',
    identificationKey: '09520123456788',
    description: 'Widget',
    qualifierPath: '/',
    active: true,
    responses,
    ...overrides,
  });

beforeAll(async () => {
  idr = await startIdrDouble();
  expect((await call('POST', '/identifiers', { namespace: 'gs1', applicationIdentifiers: [gtin, lot] })).status).toBe(200);
});
afterAll(() => idr.close());

describe('resolver double: schemes', () => {
  it('upsert merges application identifiers by ai (ai defaults to the shortcode); GET and DELETE by namespace', async () => {
    await call('POST', '/identifiers', { namespace: 'acme', applicationIdentifiers: [{ ...gtin, ai: undefined, shortcode: 'sku', regex: '.+' }] });
    await call('POST', '/identifiers', { namespace: 'acme', applicationIdentifiers: [{ ...lot, ai: undefined, shortcode: 'batch' }] });
    const acme = await call('GET', '/identifiers?namespace=acme');
    expect(acme.body).toMatchObject({ id: 'identifiers/acme', namespace: 'acme' });
    expect(acme.body.applicationIdentifiers.map((a: { ai: string }) => a.ai)).toEqual(['sku', 'batch']);
    expect(await call('GET', '/identifiers?namespace=nope')).toMatchObject({ status: 400, body: { error: "Identifier with namespace 'nope' not found" } });
    expect(await call('DELETE', '/identifiers')).toMatchObject({ status: 400, body: { error: 'Namespace is required' } });
    expect((await call('DELETE', '/identifiers?namespace=acme')).status).toBe(200);
    expect((await call('GET', '/identifiers?namespace=acme')).status).toBe(400);
    expect((await call('POST', '/identifiers', { namespace: 'bad', applicationIdentifiers: [{ ...gtin, type: 'X' }] })).status).toBe(400);
  });
});

describe('resolver double: registrations against the scheme', () => {
  it('shortcode or ai both name the primary identifier; links are listed under the ai either way', async () => {
    expect((await register()).status).toBe(201);
    expect((await register({ identificationKeyType: '01' }, [response()])).status).toBe(201);
    const listed = await call('GET', '/resolver/links?namespace=gs1&identificationKeyType=01&identificationKey=09520123456788');
    expect(listed.body).toHaveLength(2);
    expect((await call('GET', '/resolver/links?namespace=gs1&identificationKeyType=gtin&identificationKey=09520123456788')).body).toHaveLength(2);
  });

  it('400 for a type that is not a primary identifier, a key its (unanchored) regex refuses, or a qualifier it does not list', async () => {
    expect(await register({ identificationKeyType: 'lot' })).toMatchObject({ status: 400, body: { errors: [{ field: 'identificationKeyType' }] } });
    expect(await register({ identificationKey: 'ABC' })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'identificationKey', message: "Identification key 'ABC' does not match regex '(\\d{12,14}|\\d{8})'" }] },
    });
    // Unanchored, as upstream: a longer value that contains a match passes.
    expect((await register({ identificationKey: 'X12345678X' })).status).toBe(201);
    expect(await register({ qualifierPath: '/21/SER1' })).toMatchObject({ status: 400, body: { errors: [{ field: 'qualifierPath' }] } });
    expect(await register({ qualifierPath: '/10/lower' })).toMatchObject({ status: 400, body: { errors: [{ field: 'qualifierPath' }] } });
    expect((await register({ qualifierPath: '/lot/LOT1' })).status).toBe(201);
    expect((await call('GET', '/resolver/links?namespace=gs1&identificationKeyType=01&identificationKey=09520123456788&qualifierPath=/10/LOT1')).body).toHaveLength(1);
    expect(await register({ namespace: 'unknown' })).toMatchObject({ status: 404, body: { errors: [{ field: 'namespace' }] } });
  });

  it('422 for a context that is not a FIPS country code, on registration and on update', async () => {
    expect(await register({}, [response({ context: 'zz' })])).toMatchObject({
      status: 422,
      body: { errors: [{ field: 'responses.0.context', message: "Invalid context code: 'zz'" }] },
    });
    const target = response();
    expect((await register({}, [target])).status).toBe(201);
    const listed = await call('GET', '/resolver/links?namespace=gs1&identificationKeyType=01&identificationKey=09520123456788');
    const { linkId } = listed.body.find((l: { targetUrl: string }) => l.targetUrl === target.targetUrl);
    expect((await call('PUT', `/resolver/links/${linkId}`, { context: 'nowhere' })).status).toBe(422);
    expect((await call('PUT', `/resolver/links/${linkId}`, { context: 'US' })).status).toBe(200);
  });

  it('checks in the contract order: a duplicate (409) is found before an unknown link type (404)', async () => {
    const first = response();
    expect((await register({}, [first])).status).toBe(201);
    expect((await register({}, [first, response({ linkType: 'untp:nope' })])).status).toBe(409);
    expect((await register({}, [response({ linkType: 'untp:nope' })])).status).toBe(404);
  });
});

describe('resolver double: what the real 4.0.0 stores (issue 12)', () => {
  const key = '09520123456795';
  const list = async (qualifierPath = '/') =>
    (await call('GET', `/resolver/links?namespace=gs1&identificationKeyType=01&identificationKey=${key}${qualifierPath === '/' ? '' : `&qualifierPath=${qualifierPath}`}`)).body;

  it('accepts one link twice in one registration (it checks only the stored ones) and stores both', async () => {
    const twice = response();
    expect((await register({ identificationKey: key, qualifierPath: '/10/TWICE' }, [twice, { ...twice, title: 'Again' }])).status).toBe(201);
    expect((await list('/10/TWICE')).filter((l: { targetUrl: string }) => l.targetUrl === twice.targetUrl)).toHaveLength(2);
  });

  it('stores a shortcode qualifier path it then cannot list: the link query wants numeric keys', async () => {
    expect((await register({ identificationKey: key, qualifierPath: '/lot/SHORT' })).status).toBe(201);
    expect((await call('GET', `/resolver/links?namespace=gs1&identificationKeyType=01&identificationKey=${key}&qualifierPath=/lot/SHORT`)).status).toBe(400);
  });

  it('drops predecessor-version from rel silently, on registration and on update', async () => {
    const target = response({ rel: ['alternate', 'predecessor-version'] });
    expect((await register({ identificationKey: key, qualifierPath: '/10/RELS' }, [target])).status).toBe(201);
    const [stored] = await list('/10/RELS');
    expect(stored.rel).toEqual(['alternate']);
    expect((await call('PUT', `/resolver/links/${stored.linkId}`, { rel: ['predecessor-version'] })).status).toBe(200);
    expect((await call('GET', `/resolver/links/${stored.linkId}`)).body.rel).toEqual([]);
  });

  it('every registration replaces the document’s description; the public linkset shows it', async () => {
    await register({ identificationKey: key, qualifierPath: '/10/DESC', description: 'First' });
    await register({ identificationKey: key, qualifierPath: '/10/DESC', description: 'Second' });
    const res = await fetch(`${idr.url}/api/v4/gs1/01/${key}/10/DESC?linkType=all`, { headers: { accept: 'application/linkset+json' } });
    expect(res.status).toBe(200);
    expect((await res.json()).linkset[0]).toMatchObject({ anchor: expect.stringContaining(`gs1/01/${key}/10/DESC`), description: 'Second' });
    expect((await fetch(`${idr.url}/api/v4/gs1/01/${key}/10/NONE?linkType=all`)).status).toBe(404);
  });

  it('rewrites a document whole: registrations at the same moment lose each other’s links', async () => {
    const targets = [response(), response(), response()];
    const paused = idr.pauseWrites();
    const registering = Promise.all(targets.map((t) => register({ identificationKey: key, qualifierPath: '/10/RACE' }, [t])));
    // Each registration has read the (empty) document once the double has its call.
    while (idr.calls.filter((c) => (c.body as { qualifierPath?: string } | undefined)?.qualifierPath === '/10/RACE').length < 3) {
      await new Promise((done) => setTimeout(done, 5));
    }
    paused.release();
    expect((await registering).map((r) => r.status)).toEqual([201, 201, 201]);
    expect(await list('/10/RACE')).toHaveLength(1);
  });

  it('a lost link is "Link with ID … not found"; a hard-deleted or unknown one "Link index entry …"; 401 without the key', async () => {
    const target = response();
    await register({ identificationKey: key, qualifierPath: '/10/GONE' }, [target]);
    const [stored] = await list('/10/GONE');
    idr.links.delete(stored.linkId);
    expect((await call('GET', `/resolver/links/${stored.linkId}`)).body.error).toBe(`Link with ID '${stored.linkId}' not found`);
    expect((await call('GET', '/resolver/links/unknown')).body).toMatchObject({ timestamp: expect.any(String), path: '/api/v4/resolver/links/unknown', error: "Link index entry for ID 'unknown' not found" });
    const res = await fetch(`${idr.url}/api/v4/resolver/links/unknown`);
    expect(res.status).toBe(401);
    expect((await fetch(`${idr.url}/elsewhere/api/v4/resolver/links/unknown`)).headers.get('content-type')).toBe('text/html');
  });
});
