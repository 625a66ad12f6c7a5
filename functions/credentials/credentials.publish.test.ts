import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256OfMultibase } from '../../core/verification/digest.ts';
import { namespaceRegistration } from '../../core/identifier-links/system-namespaces.ts';
import { startIdrDouble, type IdrDouble } from '../../test/doubles/idr-double.ts';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';
import { gtinBody } from '../../test/rig/scheme-fixtures.ts';

/**
 * Entity links and IDR publishing after issuance: the DPP 0.7.0 sample's subject is the product
 * `https://id.sample-mine.example.com/product/cu-conc-2025` made by the party registered as MINE-001;
 * the tenant holds both as master data, the product's scheme on a registrar whose resolver is the double.
 */
let rig: IssuanceRig;
let idr: IdrDouble;
let productId: string;
let organisationId: string;
let productIdentifierId: string;

/** UNTP 0.7.0's link-set schema, from the bundled artefacts. */
const LINKSET_SCHEMA = join(import.meta.dirname, '../../core/credentials/artefacts/0.7.0/schema/idr/LinksetSchema.json');
const PRODUCT_SCHEME = { primaryKey: 'product', name: 'Sample product id', validationPattern: '^[a-z0-9-]+$', qualifiers: [] };

beforeAll(async () => {
  idr = await startIdrDouble();
  rig = await startIssuanceRig();
  const { t, token } = rig;
  const post = async (path: string, body: unknown) => {
    const res = await t.call('POST', `/api/v1${path}`, { token, body });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return (Array.isArray(res.body) ? res.body[0] : res.body) as { id: string };
  };
  const instance = await post('/services', { serviceType: 'IDR', adapterType: 'IDR_ADAPTER', name: 'Double', config: { baseUrl: idr.url, apiKey: idr.apiKey, defaultContext: 'au' } });
  const registrar = await post('/registrars', { name: 'Sample', namespace: 'sample', url: 'https://registrar.example.com', idrServiceInstanceId: instance.id });
  const productScheme = await post('/schemes', gtinBody(registrar.id, PRODUCT_SCHEME));
  const companyScheme = await post('/schemes', gtinBody(registrar.id, { primaryKey: 'company', name: 'Company register', validationPattern: '^[A-Z0-9-]+$', qualifiers: [] }));
  productIdentifierId = (await post('/identifiers', { schemeId: productScheme.id, value: 'cu-conc-2025' })).id;
  const companyIdentifier = await post('/identifiers', { schemeId: companyScheme.id, value: 'MINE-001' });
  organisationId = (await post('/organisations', [{ name: 'Sample Copper Mine', primaryIdentifierId: companyIdentifier.id }])).id;
  productId = (await post('/products', [{ name: 'Copper concentrate', level: 'MODEL', primaryIdentifierId: productIdentifierId, producedByOrganisationId: organisationId }])).id;
  const registered = await fetch(`${idr.url}/api/v4/identifiers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${idr.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(namespaceRegistration('sample', [gtinBody('', PRODUCT_SCHEME) as never])),
  });
  if (registered.status !== 200) throw new Error(`namespace registration: ${registered.status}`);
});
afterAll(async () => {
  await rig?.close();
  await idr?.close();
});

const dpp = () => samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did);
const issue = (body: unknown) => rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body });
const record = async (id: string) => (await rig.t.call('GET', `/api/v1/credentials/${id}`, { token: rig.token })).body;
const linksOf = (href: string) => [...idr.links.values()].filter((l) => l.targetUrl === href || String(l.targetUrl).includes(encodeURIComponent(href)));

describe('entity links', () => {
  it("links the record to the tenant's product and organisation the subject names", async () => {
    const res = await issue(issueBody('DigitalProductPassport', '0.7.0', dpp()));
    expect(res.status, res.text).toBe(201);
    expect(await record(res.body.credentialId)).toMatchObject({ productId, organisationId, facilityId: null, isPublished: false });
    for (const filter of [`productId=${productId}`, `organisationId=${organisationId}`]) {
      const listed = await rig.t.call('GET', `/api/v1/credentials?${filter}`, { token: rig.token });
      expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(res.body.credentialId);
    }
    expect((await rig.t.call('GET', '/api/v1/credentials?facilityId=nope', { token: rig.token })).body.data).toEqual([]);
  });

  it('a subject naming none of the tenant identifiers links nothing, and publishing says so', async () => {
    const payload = samplePayload(SAMPLES['0.7.0'].DigitalIdentityAnchor, rig.did);
    const res = await issue(issueBody('DigitalIdentityAnchor', '0.7.0', payload, { publishingOptions: { publish: true } }));
    expect(res.status).toBe(201);
    expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'PUBLISH_REFERENCE_MISSING' })]);
    expect(await record(res.body.credentialId)).toMatchObject({ productId: null, facilityId: null, organisationId: null, isPublished: false });
  });
});

describe('publishing to the IDR after issuance', () => {
  it('publishes credential and human links under the product identifier, records them, never the key', async () => {
    const res = await issue(
      issueBody('DigitalProductPassport', '0.7.0', dpp(), {
        publishingOptions: { publish: true, hreflang: ['en'], accessRole: ['untp:accessRole#Customer'], machineVerificationUrl: 'https://verify.example.com/api' },
      }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.warnings).toBeUndefined();
    const rec = await record(res.body.credentialId);
    expect(rec).toMatchObject({ isPublished: true, resolverUri: `${idr.url}/sample/product/cu-conc-2025` });
    const credentialLink = [...idr.links.values()].find((l) => l.targetUrl === rec.storageUri);
    expect(credentialLink).toMatchObject({ linkType: 'untp:dpp', mimeType: 'application/json', title: 'Digital Product Passport v0.7.0', hreflang: ['en'], encryptionMethod: 'AES-256', accessRole: ['untp:accessRole#Customer'] });
    const human = [...idr.links.values()].find((l) => l.mimeType === 'text/html' && String(l.targetUrl).includes(encodeURIComponent(rec.storageUri)));
    expect(human).toBeDefined();
    const q = JSON.parse(new URL(String(human!.targetUrl)).searchParams.get('q')!);
    expect(q).toEqual({ payload: { uri: rec.storageUri, digestMultibase: rec.digestMultibase } });
    expect(new URL(String(human!.targetUrl)).pathname).toBe('/verify');
    expect([...idr.links.values()].some((l) => l.targetUrl === 'https://verify.example.com/api' && l.linkType === 'gs1:verificationService')).toBe(true);
    expect(JSON.stringify(idr.calls)).not.toContain(rec.decryptionKey);
    const local = await rig.t.call('GET', `/api/v1/identifiers/${productIdentifierId}/links?limit=100`, { token: rig.token });
    expect(local.body.data.map((l: { published: { href: string } }) => l.published.href)).toEqual(expect.arrayContaining([rec.storageUri, 'https://verify.example.com/api']));
    const published = await rig.t.call('GET', '/api/v1/credentials?isPublished=true', { token: rig.token });
    expect(published.body.data.map((c: { id: string }) => c.id)).toEqual([rec.id]);

    // The link set the resolver serves (as the UNTP Playground reads it) validates against the UNTP 0.7.0
    // link-set schema, with the credential under its type's relation (`<vocabulary>/dpp`, not `untp:dpp`).
    const linkset = await (await fetch(`${idr.url}/api/v4/sample/product/cu-conc-2025?linkType=all`)).json();
    const validate = new Ajv({ strict: false, allErrors: true }).compile(JSON.parse(readFileSync(LINKSET_SCHEMA, 'utf8')));
    expect(validate(linkset), JSON.stringify(validate.errors)).toBe(true);
    const [context] = linkset.linkset as Record<string, { href: string }[]>[];
    const dppRelation = Object.keys(context!).find((key) => key.endsWith('/dpp'));
    expect(context![dppRelation!]!.map((l) => l.href)).toContain(rec.storageUri);
    expect(Object.keys(context!).some((key) => key.includes(':dpp'))).toBe(false);
    // A relation written untp:dpp in the link set is what the schema refuses.
    expect(validate({ linkset: [{ ...context, 'untp:dpp': context![dppRelation!] }] })).toBe(false);
  });

  it("a credential of another type is published under its own type's link type when the instance names none", async () => {
    const dte = samplePayload(SAMPLES['0.7.0'].DigitalTraceabilityEvent, rig.did);
    const res = await issue(issueBody('DigitalTraceabilityEvent', '0.7.0', dte, { publishingOptions: { publish: true } }));
    expect(res.status, res.text).toBe(201);
    const rec = await record(res.body.credentialId);
    expect(rec.isPublished, JSON.stringify(res.body.warnings)).toBe(true);
    expect([...idr.links.values()].find((l) => l.targetUrl === rec.storageUri)).toMatchObject({ linkType: 'untp:dte' });
    const linkset = await (await fetch(`${idr.url}/api/v4/sample/product/cu-conc-2025?linkType=all`)).json();
    const [context] = linkset.linkset as Record<string, { href: string }[]>[];
    expect(Object.entries(context!).find(([key]) => key.endsWith('/dte'))?.[1].map((l) => l.href)).toContain(rec.storageUri);
  });

  it('linkType, linkTitle and humanVerificationUrl override the defaults (reserved query parameters dropped)', async () => {
    const res = await issue(
      issueBody('DigitalProductPassport', '0.7.0', dpp(), {
        storageOptions: { encrypt: false },
        publishingOptions: { publish: true, linkType: 'untp:dpp', linkTitle: 'Passport', humanVerificationUrl: 'https://viewer.example.com/see?decryptionKey=leak&lang=en' },
      }),
    );
    expect(res.status, res.text).toBe(201);
    const rec = await record(res.body.credentialId);
    const credentialLink = linksOf(rec.storageUri).find((l) => l.mimeType === 'application/json');
    expect(credentialLink).toMatchObject({ title: 'Passport' });
    expect(credentialLink).not.toHaveProperty('encryptionMethod');
    const human = linksOf(rec.storageUri).find((l) => l.mimeType === 'text/html')!;
    const url = new URL(String(human.targetUrl));
    expect(url.origin + url.pathname).toBe('https://viewer.example.com/see');
    expect(url.searchParams.get('lang')).toBe('en');
    expect(url.searchParams.has('decryptionKey')).toBe(false);
  });

  it('a resolver failure is a warning: the credential is issued and recorded unpublished', async () => {
    idr.failNext('error', 5);
    const res = await issue(issueBody('DigitalProductPassport', '0.7.0', dpp(), { publishingOptions: { publish: true } }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'IDR_PUBLISH_UNCONFIRMED' })]);
    expect(await record(res.body.credentialId)).toMatchObject({ isPublished: false, resolverUri: null, productId });
  });

  it('a scheme filter that names none of the subject identifiers is a warning', async () => {
    const res = await issue(issueBody('DigitalProductPassport', '0.7.0', dpp(), { publishingOptions: { publish: true, identifierSchemeId: 'cnotascheme00000000000000' } }));
    expect(res.status).toBe(201);
    expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'PUBLISH_IDENTIFIER_UNKNOWN' })]);
  });
});

const qrText = async (id: string, query: string) => {
  const res = await fetch(`${rig.t.url}/api/v1/credentials/${id}/qr?format=png&size=600&${query}`, { headers: { authorization: `Bearer ${rig.token}` } });
  if (res.status !== 200) return { status: res.status, body: await res.json() };
  expect(res.headers.get('content-type')).toBe('image/png');
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
  return { status: 200, text: jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data };
};
const payloadOf = (href: string) => JSON.parse(new URL(href).searchParams.get('q')!).payload as Record<string, string>;

describe('human links that carry the key, and QR codes', () => {
  // Whatever failures an earlier test left armed on the resolver double are disarmed.
  beforeAll(() => idr.failNext('error', 0));

  it('by default the published human link, verifyUrl and the QR code carry no key', async () => {
    const res = await issue(issueBody('DigitalProductPassport', '0.7.0', dpp(), { publishingOptions: { publish: true } }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.warnings ?? []).toEqual([]);
    const rec = await record(res.body.credentialId);
    expect(rec.decryptionKey).toMatch(/^[0-9a-f]{64}$/);
    const human = linksOf(rec.storageUri).find((l) => l.mimeType === 'text/html')!;
    expect(payloadOf(String(human.targetUrl))).toEqual({ uri: rec.storageUri, digestMultibase: rec.digestMultibase });
    expect(rec.verifyUrl).toBe(human.targetUrl);
    expect(await qrText(rec.id, '')).toEqual({ status: 200, text: rec.verifyUrl });
    expect(rec.verifyUrl).not.toContain(rec.decryptionKey);
  });

  it('humanLinkIncludesKey: the human link is UNTP\'s QR-link form {uri, key, hash}, and the QR code carries it', async () => {
    const res = await issue(issueBody('DigitalProductPassport', '0.7.0', dpp(), { publishingOptions: { publish: true, humanLinkIncludesKey: true } }));
    expect(res.status, res.text).toBe(201);
    const rec = await record(res.body.credentialId);
    const human = linksOf(rec.storageUri).find((l) => l.mimeType === 'text/html')!;
    const payload = payloadOf(String(human.targetUrl));
    expect(payload).toEqual({ uri: rec.storageUri, key: rec.decryptionKey, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // the same SHA-256 as the record's digestMultibase (of the signed credential, which the verifier compares after decrypting)
    expect(payload.hash).toBe(Buffer.from(sha256OfMultibase(rec.digestMultibase)!).toString('hex'));
    expect(rec.verifyUrl).toBe(human.targetUrl);
    expect(await qrText(rec.id, 'errorCorrection=Q')).toEqual({ status: 200, text: rec.verifyUrl });
  });

  it('target=resolver encodes the resolver URI of a published credential; an unpublished one is a 409', async () => {
    const published = await record((await issue(issueBody('DigitalProductPassport', '0.7.0', dpp(), { publishingOptions: { publish: true } }))).body.credentialId);
    expect(published.resolverUri).toMatch(/^http/);
    expect(await qrText(published.id, 'target=resolver')).toEqual({ status: 200, text: published.resolverUri });
    const unpublished = (await issue(issueBody('DigitalProductPassport', '0.7.0', dpp()))).body.credentialId;
    expect(await qrText(unpublished, 'target=resolver')).toEqual({ status: 409, body: { error: expect.stringMatching(/^target: /), code: 'CREDENTIAL_NOT_PUBLISHED' } });
  });

  it('query parameters out of range are a 400 naming the parameter', async () => {
    const id = (await issue(issueBody('DigitalProductPassport', '0.7.0', dpp()))).body.credentialId;
    for (const [query, field] of [['format=gif', 'format'], ['size=10', 'size'], ['size=4096', 'size'], ['size=2e2', 'size'], ['errorCorrection=X', 'errorCorrection'], ['target=idr', 'target']]) {
      const res = await rig.t.call('GET', `/api/v1/credentials/${id}/qr?${query}`, { token: rig.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toMatch(new RegExp(`^${field}: `));
    }
    const svg = await rig.t.call('GET', `/api/v1/credentials/${id}/qr?size=300`, { token: rig.token });
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(svg.text).toMatch(/^<svg [^>]*width="300" height="300"/);
  });
});
