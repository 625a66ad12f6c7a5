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
