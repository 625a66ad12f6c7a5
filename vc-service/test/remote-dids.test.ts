import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactSign, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_PUBLIC_ADDRESSES } from '../../test/rig/address-table.ts';
import { createEmptyDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { createDocumentFetcher } from '../node-did-fetch.ts';
import { startVcServer } from '../server.ts';
import { API_KEY, KEY_ENCRYPTION_KEY, sampleCredential } from './vc-harness.ts';

/**
 * Another party's did:web: the service in-process with the HTTPS document fetch replaced by a
 * table of documents (the fetch's own bounds are tested below against real sockets).
 */
let database: TestDatabase;
let service: Awaited<ReturnType<typeof startVcServer>>;
const hosted = new Map<string, unknown>();
const fetched: string[] = [];
const DID = 'did:web:partner.example.org:issuers:7';

beforeAll(async () => {
  database = await createEmptyDatabase();
  service = await startVcServer(
    { API_KEY, KEY_ENCRYPTION_KEY, DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'error', DID_CACHE_SECONDS: '300' },
    {
      hostname: '127.0.0.1',
      fetchDocument: async (url) => {
        fetched.push(url.href);
        if (!hosted.has(url.href)) throw new Error(`${url.href} answered HTTP 404`);
        return hosted.get(url.href);
      },
    },
  );
});
afterAll(async () => {
  await service.close();
  await database.drop();
});

const agent = async (method: string, body: unknown) => {
  const res = await fetch(`http://127.0.0.1:${service.port}/agent/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

describe('VC service: other did:web issuers', () => {
  it('resolves their document over HTTPS at the did:web location, caches it, and verifies their signatures', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const vm = { id: `${DID}#key-1`, type: 'JsonWebKey', controller: DID, publicKeyJwk: await exportJWK(publicKey) };
    hosted.set('https://partner.example.org/issuers/7/did.json', { '@context': ['https://www.w3.org/ns/did/v1'], id: DID, verificationMethod: [vm], assertionMethod: [vm.id] });
    const credential = sampleCredential(DID);
    const sign = (kid: string) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(credential))).setProtectedHeader({ alg: 'EdDSA', kid, typ: 'vc+jwt', cty: 'vc' }).sign(privateKey);
    const enveloped = (jws: string) => ({ type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${jws}` });

    expect((await agent('routeVerificationCredential', { credential: enveloped(await sign(vm.id)) })).body).toEqual({ verified: true, mediaType: 'vc+jwt', document: credential });
    expect((await agent('routeVerificationCredential', { credential: enveloped(await sign('#key-1')) })).body.verified).toBe(true);
    expect((await agent('resolveDid', { didUrl: DID })).body.didDocument.id).toBe(DID);
    expect(fetched).toEqual(['https://partner.example.org/issuers/7/did.json']);
    // Issuing in their name is refused: this service does not hold their key.
    const res = await fetch(`http://127.0.0.1:${service.port}/v2/credentials/issue`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credential }),
    });
    expect(res.status).toBe(400);
  });

  it('a document for another DID, or none, does not resolve', async () => {
    hosted.set('https://liar.example.org/.well-known/did.json', { id: 'did:web:someone.else' });
    expect((await agent('resolveDid', { didUrl: 'did:web:liar.example.org' })).body).toMatchObject({ didDocument: null, didResolutionMetadata: { error: 'notFound' } });
    expect((await agent('resolveDid', { didUrl: 'did:web:missing.example.org' })).body.didDocument).toBeNull();
    expect((await agent('resolveDid', { didUrl: 'did:key:z6Mk' })).body.didResolutionMetadata.message).toMatch(/only did:web/);
  });
});

describe('did:web document fetch bounds', () => {
  const fetchDocument = createDocumentFetcher({ allowPrivate: false });
  it('refuses plain HTTP and non-public addresses before connecting', async () => {
    await expect(fetchDocument(new URL('http://example.org/.well-known/did.json'))).rejects.toThrow(/not HTTPS/);
    await expect(fetchDocument(new URL('https://127.0.0.1:9/.well-known/did.json'))).rejects.toThrow(/not a public address/);
    await expect(fetchDocument(new URL('https://[::1]:9/.well-known/did.json'))).rejects.toThrow(/not a public address/);
    await expect(fetchDocument(new URL('https://localhost:9/.well-known/did.json'))).rejects.toThrow(/non-public address/);
  });

  // The main API's address table: every address it refuses, written in the URL, is refused here too.
  it.each(NOT_PUBLIC_ADDRESSES)('refuses %s (the main API guard table)', async (address) => {
    const host = address.includes(':') ? `[${address}]` : address;
    await expect(fetchDocument(new URL(`https://${host}:9/.well-known/did.json`))).rejects.toThrow(/not a public address/);
  });
});

describe('did:web document fetch over real TLS', () => {
  let dir: string;
  let server: Server;
  let base: string;
  let ca: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-vc-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    ca = await readFile(join(dir, 'cert.pem'), 'utf8');
    server = createServer({ key: await readFile(join(dir, 'key.pem')), cert: ca }, (req, res) => {
      const hops = /^\/hop\/(\d+)$/.exec(req.url ?? '');
      if (hops) {
        const n = Number(hops[1]);
        res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : '/.well-known/did.json' }).end();
      } else if (req.url === '/to-http') res.writeHead(302, { location: 'http://localhost/.well-known/did.json' }).end();
      else if (req.url === '/drip') {
        // A byte now and then, never the end: each gap is shorter than the per-hop silence limit.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const timer = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(timer));
      } else if (req.url === '/huge') res.end(JSON.stringify({ id: 'x', pad: 'x'.repeat(1_100_000) }));
      else if (req.url === '/.well-known/did.json') res.end(JSON.stringify({ id: 'did:web:localhost' }));
      else res.writeHead(404).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    base = `https://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    await rm(dir, { recursive: true, force: true });
  });

  it('follows up to 3 redirects over HTTPS; more, an HTTP hop, a body over 1 MiB, an untrusted certificate or a 404 fail', async () => {
    const fetchDocument = createDocumentFetcher({ allowPrivate: true, ca });
    expect(await fetchDocument(new URL(`${base}/hop/2`))).toEqual({ id: 'did:web:localhost' });
    await expect(fetchDocument(new URL(`${base}/hop/3`))).rejects.toThrow(/more than 3 redirects/);
    await expect(fetchDocument(new URL(`${base}/to-http`))).rejects.toThrow(/not HTTPS/);
    await expect(fetchDocument(new URL(`${base}/huge`))).rejects.toThrow(/larger than 1 MiB/);
    await expect(fetchDocument(new URL(`${base}/nothing`))).rejects.toThrow(/HTTP 404/);
    await expect(createDocumentFetcher({ allowPrivate: true })(new URL(`${base}/.well-known/did.json`))).rejects.toThrow(/self[- ]signed/i);
  });

  it('a document that drips forever is given up at the overall deadline', async () => {
    const fetchDocument = createDocumentFetcher({ allowPrivate: true, ca, deadlineMs: 1000 });
    await expect(fetchDocument(new URL(`${base}/drip`))).rejects.toThrow(/did not arrive within 1 s/);
  });
});
