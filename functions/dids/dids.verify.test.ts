import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VcService } from '../../vc-service/test/vc-harness.ts';
import { didRow, useVcServiceAsSystemVc, vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { SYSTEM_SERVICE_IDS } from '../../test/rig/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { makeTlsMaterial, startTlsHost, type TlsHost, type TlsMaterial } from '../../test/rig/tls-host.ts';

let t: TestApp;
let vc: VcService;
let token: string;
let tls: TlsMaterial;
let valid: TlsHost;
let expired: TlsHost;
let selfSigned: TlsHost;
let plain: Server;
let plainOrigin: string;
const plainRoutes = new Map<string, string>();

const CHECK_NAMES = ['Resolve', 'HTTPS', 'Structure', 'Identity match', 'Key material', 'JSON-LD validity'];

beforeAll(async () => {
  tls = makeTlsMaterial();
  [valid, expired, selfSigned] = await Promise.all([startTlsHost(tls.valid), startTlsHost(tls.expired), startTlsHost(tls.selfSigned)]);
  plain = createServer((req, res) => {
    const body = plainRoutes.get(req.url!);
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((done) => plain.listen(0, '127.0.0.1', () => done()));
  plainOrigin = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' }, fetch: { ca: [tls.caPem] } });
  vc = await useVcServiceAsSystemVc(t);
  token = await t.token('tenantA');
});
afterAll(async () => {
  await t.close();
  await vc.stop();
  await Promise.all([valid.close(), expired.close(), selfSigned.close()]);
  plain.closeAllConnections();
  plain.close();
  tls.dispose();
});

/** A minimal conforming DID document with one JsonWebKey method. */
const documentFor = (did: string, fragment = 'key-1') => ({
  '@context': ['https://www.w3.org/ns/did/v1'],
  id: did,
  verificationMethod: [{ id: `${did}#${fragment}`, type: 'JsonWebKey', controller: did, publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' } }],
  assertionMethod: [`${did}#${fragment}`],
});
const importDid = async (did: string) =>
  (await t.call('POST', '/api/v1/dids/import', { token, body: { did, method: 'DID_WEB', keyId: 'key-1', serviceInstanceId: SYSTEM_SERVICE_IDS.VC } })).body;
const verify = (id: string) => t.call('POST', `/api/v1/dids/${id}/verify`, { token });
const resultOf = (res: { body: { checks: { name: string; result: string; message: string }[] } }, name: string) =>
  res.body.checks.find((c) => c.name === name)!;
const host = (server: TlsHost, path: string, body: unknown) => server.routes.set(path, { body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('POST /dids/{id}/verify over real TLS', () => {
  it('all checks pass for a conforming document on a host with a trusted certificate: VERIFIED', async () => {
    const did = `did:web:${valid.didHost}:good`;
    host(valid, '/good/did.json', documentFor(did));
    const record = await importDid(did);
    const res = await verify(record.id);
    expect(res.status).toBe(200);
    expect(res.body.checks.map((c: { name: string }) => c.name)).toEqual(CHECK_NAMES);
    expect(res.body.checks.map((c: { result: string }) => c.result)).toEqual(['PASSED', 'PASSED', 'PASSED', 'PASSED', 'PASSED', 'SKIPPED']);
    expect(resultOf(res, 'Key material').message).toBe('No provider keys to compare');
    expect(res.body).toMatchObject({ verified: true, did: { id: record.id, status: 'VERIFIED' } });
    expect((await didRow(t.db, record.id))!.status).toBe('VERIFIED');
  });

  it('the domain alone resolves to /.well-known/did.json', async () => {
    const did = `did:web:${valid.didHost}`;
    host(valid, '/.well-known/did.json', documentFor(did));
    const res = await verify((await importDid(did)).id);
    expect(res.body.verified).toBe(true);
  });

  it('key material: the keys the VC service holds must appear in verificationMethod', async () => {
    const alias = `127.0.0.1:${valid.port}:held`;
    const created = (await t.call('POST', '/api/v1/dids', { token, body: { type: 'SELF_MANAGED', method: 'DID_WEB', alias } })).body;
    expect(created).toMatchObject({ did: `did:web:${valid.didHost}:held`, status: 'UNVERIFIED' });
    host(valid, '/held/did.json', documentFor(created.did, 'someone-else'));
    const missing = await verify(created.id);
    expect(resultOf(missing, 'Key material')).toMatchObject({ result: 'FAILED', message: expect.stringContaining(created.keyId) });
    expect(missing.body).toMatchObject({ verified: false, did: { status: 'VERIFICATION_FAILED' } });
    const upstream = await vcAdapterOf(vc).resolveDocument(created.did);
    host(valid, '/held/did.json', upstream);
    const fixed = await verify(created.id);
    expect(resultOf(fixed, 'Key material').result).toBe('PASSED');
    expect(fixed.body).toMatchObject({ verified: true, did: { status: 'VERIFIED' } });
  });

  it('identity match fails when the document id is another DID: VERIFICATION_FAILED', async () => {
    const did = `did:web:${valid.didHost}:impostor`;
    host(valid, '/impostor/did.json', documentFor(`did:web:${valid.didHost}:someone`));
    const res = await verify((await importDid(did)).id);
    expect(resultOf(res, 'Identity match').result).toBe('FAILED');
    expect(resultOf(res, 'Structure').result).toBe('PASSED');
    expect(res.body.did.status).toBe('VERIFICATION_FAILED');
  });

  it.each([
    ['a verification method without controller', (did: string) => ({ id: did, verificationMethod: [{ id: `${did}#k`, type: 'JsonWebKey' }] })],
    ['an id that is not a DID', () => ({ id: 'https://example.com' })],
    ['a private key in publicKeyJwk', (did: string) => ({ id: did, verificationMethod: [{ id: `${did}#k`, type: 'JsonWebKey', controller: did, publicKeyJwk: { kty: 'OKP', d: 'secret' } }] })],
    ['a JSON array', () => []],
  ])('structure fails for %s', async (_what, make) => {
    const name = `bad-${Math.random().toString(36).slice(2, 8)}`;
    const did = `did:web:${valid.didHost}:${name}`;
    host(valid, `/${name}/did.json`, make(did));
    const res = await verify((await importDid(did)).id);
    expect(resultOf(res, 'Structure').result).toBe('FAILED');
    expect(res.body.verified).toBe(false);
  });

  it.each([
    ['expired', () => expired, 'certificate has expired'],
    ['self-signed', () => selfSigned, 'self-signed certificate'],
  ])('a %s certificate fails Resolve and HTTPS', async (_what, server, reason) => {
    const did = `did:web:${server().didHost}:tls`;
    host(server(), '/tls/did.json', documentFor(did));
    const res = await verify((await importDid(did)).id);
    expect(resultOf(res, 'Resolve')).toMatchObject({ result: 'FAILED', message: expect.stringContaining(reason) });
    expect(resultOf(res, 'HTTPS').result).toBe('FAILED');
    expect(res.body.checks.map((c: { result: string }) => c.result)).toEqual(['FAILED', 'FAILED', 'FAILED', 'FAILED', 'FAILED', 'SKIPPED']);
    expect(res.body.did.status).toBe('VERIFICATION_FAILED');
  });

  it('a redirect to plain HTTP resolves but fails HTTPS (insecure landing)', async () => {
    const did = `did:web:${valid.didHost}:downgrade`;
    plainRoutes.set('/downgrade.json', JSON.stringify(documentFor(did)));
    valid.routes.set('/downgrade/did.json', { location: `${plainOrigin}/downgrade.json` });
    const res = await verify((await importDid(did)).id);
    expect(resultOf(res, 'Resolve').result).toBe('PASSED');
    expect(resultOf(res, 'HTTPS')).toMatchObject({ result: 'FAILED', message: expect.stringContaining('Insecure landing') });
    expect(res.body.verified).toBe(false);
  });

  it('up to 3 redirects are followed; a 4th fails Resolve', async () => {
    const chain = (name: string, hops: number) => {
      const did = `did:web:${valid.didHost}:${name}`;
      for (let i = 0; i < hops; i++) valid.routes.set(i === 0 ? `/${name}/did.json` : `/${name}/hop${i}`, { location: `${valid.origin}/${name}/hop${i + 1}` });
      host(valid, `/${name}/hop${hops}`, documentFor(did));
      return did;
    };
    expect((await verify((await importDid(chain('three', 3))).id)).body.verified).toBe(true);
    const four = await verify((await importDid(chain('four', 4))).id);
    expect(resultOf(four, 'Resolve')).toMatchObject({ result: 'FAILED', message: expect.stringContaining('redirects') });
  });

  it('a non-success status or a body over 1 MiB fails Resolve', async () => {
    const gone = await verify((await importDid(`did:web:${valid.didHost}:gone`)).id);
    expect(resultOf(gone, 'Resolve')).toMatchObject({ result: 'FAILED', message: expect.stringContaining('HTTP 404') });
    const did = `did:web:${valid.didHost}:huge`;
    host(valid, '/huge/did.json', JSON.stringify({ ...documentFor(did), padding: 'x'.repeat(1024 * 1024) }));
    const huge = await verify((await importDid(did)).id);
    expect(resultOf(huge, 'Resolve')).toMatchObject({ result: 'FAILED', message: expect.stringContaining('larger than') });
  });

  it('a MANAGED DID is checked but keeps ACTIVE', async () => {
    const created = (await t.call('POST', '/api/v1/dids', { token, body: { type: 'MANAGED', method: 'DID_WEB', alias: 'managed-check' } })).body;
    const res = await verify(created.id);
    expect(res.status).toBe(200);
    expect(res.body.did.status).toBe('ACTIVE');
    expect((await didRow(t.db, created.id))!.status).toBe('ACTIVE');
  });

  it('GET /dids/{id}/document of a SELF_MANAGED DID comes from its hosting location', async () => {
    const did = `did:web:${valid.didHost}:hosted`;
    host(valid, '/hosted/did.json', documentFor(did));
    const record = await importDid(did);
    const res = await t.call('GET', `/api/v1/dids/${record.id}/document`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(documentFor(did));
    valid.routes.delete('/hosted/did.json');
    expect((await t.call('GET', `/api/v1/dids/${record.id}/document`, { token })).status).toBe(502);
  });
});

describe('private addresses', () => {
  it('without FETCH_ALLOW_PRIVATE_URLS a loopback host fails Resolve', async () => {
    const strict = await startTestApp({ fetch: { ca: [tls.caPem] } });
    try {
      const strictToken = await strict.token('tenantA');
      const did = `did:web:${valid.didHost}:private`;
      host(valid, '/private/did.json', documentFor(did));
      const record = (await strict.call('POST', '/api/v1/dids/import', {
        token: strictToken,
        body: { did, method: 'DID_WEB', keyId: 'k', serviceInstanceId: SYSTEM_SERVICE_IDS.VC },
      })).body;
      const res = await strict.call('POST', `/api/v1/dids/${record.id}/verify`, { token: strictToken });
      expect(resultOf(res, 'Resolve')).toMatchObject({ result: 'FAILED', message: expect.stringContaining('private or reserved') });
      expect(res.body.did.status).toBe('VERIFICATION_FAILED');
    } finally {
      await strict.close();
    }
  });
});
