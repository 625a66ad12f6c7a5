import { Bitstring } from '@digitalbazaar/bitstring';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { base58btc } from 'multiformats/bases/base58';
import { CompactSign, exportJWK, generateKeyPair, type JWK } from 'jose';
import { makeTlsMaterial, type TlsMaterial } from './tls-host.ts';

/**
 * Another organisation's issuer, written for the tests without any of our signing code: its own
 * keys, its own did:web document and its own W3C Bitstring Status Lists, served over real TLS from a
 * loopback host (a test CA the VC service trusts through NODE_EXTRA_CA_CERTS).
 */
export type ForeignKeyName = 'ed25519-2020' | 'jwk2020-p256' | 'multikey-p256' | 'multikey-ed25519';

interface SigningKey {
  kid: string;
  alg: 'EdDSA' | 'ES256';
  privateKey: CryptoKey;
}

/** How the status lists are served: signed JWS (default), VCkit's enveloped JSON, a forged signature, or a 503. */
export type ListMode = 'jws' | 'enveloped' | 'forged' | 'down';

export interface ForeignIssuer {
  did: string;
  origin: string;
  keys: Record<ForeignKeyName, SigningKey>;
  /** The environment a VC service needs to reach this host (private address, test CA). */
  vcEnv: Record<string, string>;
  caPem: string;
  /** A UNTP-shaped credential of this issuer. */
  credential(extra?: Record<string, unknown>): Record<string, unknown>;
  /** A new index on the purpose's list (statusListIndex as W3C writes it: a string of digits). */
  statusEntry(purpose?: 'revocation' | 'suspension'): Record<string, unknown>;
  setStatus(entry: Record<string, unknown>, on: boolean): void;
  /** The compact JWS of a credential signed with one of the keys (`kid` overrides the header's kid). */
  sign(credential: Record<string, unknown>, key?: ForeignKeyName, options?: { kid?: string; privateKey?: CryptoKey }): Promise<string>;
  /** The credential as an EnvelopedVerifiableCredential (what is stored and verified). */
  envelope(credential: Record<string, unknown>, key?: ForeignKeyName, options?: { kid?: string; privateKey?: CryptoKey }): Promise<Record<string, unknown>>;
  /** Settings of the list host: how lists are served, their Cache-Control, and how many list requests arrived. */
  lists: { mode: ListMode; cacheControl: string; requests: number; notModified: number };
  close(): Promise<void>;
}

const LIST_LENGTH = 131_072;
const encoder = new TextEncoder();

/** A compressed P-256 public key as multibase multicodec (0x1200, p256-pub). */
const p256Multibase = (jwk: JWK) => {
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  return base58btc.encode(Uint8Array.from([0x80, 0x24, (y[31]! & 1) === 1 ? 0x03 : 0x02, ...x]));
};
const ed25519Multibase = (jwk: JWK) => base58btc.encode(Uint8Array.from([0xed, 0x01, ...Buffer.from(jwk.x!, 'base64url')]));

export const startForeignIssuer = async (): Promise<ForeignIssuer> => {
  const tls: TlsMaterial = makeTlsMaterial();
  const caDir = mkdtempSync(join(tmpdir(), 'css-foreign-ca-'));
  const caFile = join(caDir, 'ca.pem');
  writeFileSync(caFile, tls.caPem);

  const routes = new Map<string, () => Promise<{ status: number; type?: string; body?: string; etag?: string }>>();
  const lists = { mode: 'jws' as ListMode, cacheControl: 'no-cache', requests: 0, notModified: 0 };
  const server: Server = createServer(tls.valid, (req, res) => {
    const route = routes.get(new URL(req.url!, 'https://host').pathname);
    if (!route) return void res.writeHead(404).end('not found');
    void route().then((answer) => {
      if (answer.etag && req.headers['if-none-match'] === answer.etag) {
      lists.notModified += 1;
        return void res.writeHead(304, { etag: answer.etag, 'cache-control': lists.cacheControl }).end();
      }
      const headers: Record<string, string> = { 'content-type': answer.type ?? 'application/json' };
      if (answer.etag) Object.assign(headers, { etag: answer.etag, 'cache-control': lists.cacheControl });
      res.writeHead(answer.status, headers).end(answer.body ?? '');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const port = (server.address() as AddressInfo).port;
  const origin = `https://127.0.0.1:${port}`;
  const did = `did:web:127.0.0.1%3A${port}`;

  const ed = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const p256 = await generateKeyPair('ES256');
  const [edJwk, p256Jwk] = await Promise.all([exportJWK(ed.publicKey), exportJWK(p256.publicKey)]);
  const keys: Record<ForeignKeyName, SigningKey> = {
    'ed25519-2020': { kid: `${did}#ed-2020`, alg: 'EdDSA', privateKey: ed.privateKey },
    'jwk2020-p256': { kid: `${did}#jwk-p256`, alg: 'ES256', privateKey: p256.privateKey },
    'multikey-p256': { kid: `${did}#multikey-p256`, alg: 'ES256', privateKey: p256.privateKey },
    'multikey-ed25519': { kid: `${did}#multikey-ed`, alg: 'EdDSA', privateKey: ed.privateKey },
  };
  const methods = [
    // A key-agreement key first: not a signing method, so never the one a kid picks by accident.
    { id: `${did}#agreement`, type: 'X25519KeyAgreementKey2020', controller: did, publicKeyMultibase: 'z6LSbysY2xFMRpGMhb7tFTLMpeuPRaqaWM1yECx2AtzE3KCc' },
    { id: '#ed-2020', type: 'Ed25519VerificationKey2020', controller: did, publicKeyMultibase: ed25519Multibase(edJwk) },
    { id: `${did}#jwk-p256`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: p256Jwk },
    { id: `${did}#multikey-p256`, type: 'Multikey', controller: did, publicKeyMultibase: p256Multibase(p256Jwk) },
    { id: `${did}#multikey-ed`, type: 'Multikey', controller: did, publicKeyMultibase: ed25519Multibase(edJwk) },
  ];
  const document = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.slice(1).map((m) => m.id),
  };
  routes.set('/.well-known/did.json', async () => ({ status: 200, type: 'application/did+json', body: JSON.stringify(document) }));
  // The same document where `<did>:elsewhere` would live: its id is not that DID, so it must not resolve it.
  routes.set('/elsewhere/did.json', async () => ({ status: 200, type: 'application/did+json', body: JSON.stringify(document) }));

  const sign = async (credential: Record<string, unknown>, key: ForeignKeyName = 'ed25519-2020', options: { kid?: string; privateKey?: CryptoKey } = {}) => {
    const chosen = keys[key];
    return new CompactSign(encoder.encode(JSON.stringify(credential)))
      .setProtectedHeader({ alg: chosen.alg, kid: options.kid ?? chosen.kid, typ: 'vc+jwt', cty: 'vc' })
      .sign(options.privateKey ?? chosen.privateKey);
  };
  const envelope = async (credential: Record<string, unknown>, key?: ForeignKeyName, options?: { kid?: string; privateKey?: CryptoKey }) => ({
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    type: 'EnvelopedVerifiableCredential',
    id: `data:application/vc+jwt,${await sign(credential, key, options)}`,
  });

  const forger = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const bitstrings = { revocation: new Bitstring({ length: LIST_LENGTH }), suspension: new Bitstring({ length: LIST_LENGTH }) };
  const next = { revocation: 7, suspension: 3 };
  const listUrl = (purpose: string) => `${origin}/status/${purpose}`;
  // Signed when asked for, as a list service re-signs after each change: the body always follows the bits.
  const signedLists = new Map<string, Promise<string>>();
  const listJws = (purpose: 'revocation' | 'suspension', forged: boolean) => {
    // Signed once per content (a list service re-signs only on a change).
    const key = `${purpose}|${forged}|${createHash('sha256').update(bitstrings[purpose].bits).digest('hex')}`;
    if (!signedLists.has(key)) signedLists.set(key, signList(purpose, forged));
    return signedLists.get(key)!;
  };
  const signList = async (purpose: 'revocation' | 'suspension', forged: boolean) => {
    const credential = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id: listUrl(purpose),
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: did,
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: { id: `${listUrl(purpose)}#list`, type: 'BitstringStatusList', statusPurpose: purpose, encodedList: `u${await bitstrings[purpose].encodeBits()}` },
    };
    return sign(credential, 'multikey-ed25519', forged ? { privateKey: forger.privateKey } : {});
  };
  for (const purpose of ['revocation', 'suspension'] as const) {
    routes.set(`/status/${purpose}`, async () => {
      lists.requests += 1;
      if (lists.mode === 'down') return { status: 503, body: 'unavailable' };
      // EdDSA signatures are deterministic: an unchanged list has the same body, so the same ETag.
      const jws = await listJws(purpose, lists.mode === 'forged');
      const enveloped = lists.mode === 'enveloped';
      const body = enveloped ? JSON.stringify({ '@context': ['https://www.w3.org/ns/credentials/v2'], type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${jws}` }) : jws;
      return { status: 200, type: enveloped ? 'application/json' : 'application/vc+jwt', body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` };
    });
  }

  return {
    did,
    origin,
    keys,
    caPem: tls.caPem,
    vcEnv: { DID_ALLOW_PRIVATE_HOSTS: 'true', NODE_EXTRA_CA_CERTS: caFile },
    lists,
    sign,
    envelope,
    credential: (extra = {}) => ({
      '@context': ['https://www.w3.org/ns/credentials/v2', 'https://test.uncefact.org/vocabulary/untp/dpp/0.6.0/'],
      type: ['VerifiableCredential', 'DigitalProductPassport'],
      id: `urn:uuid:${crypto.randomUUID()}`,
      issuer: { type: ['CredentialIssuer'], id: did, name: 'Partner Manufacturing' },
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: { id: 'https://id.partner.example/01/09520123456788', name: 'Partner widget' },
      ...extra,
    }),
    statusEntry(purpose = 'revocation') {
      const index = next[purpose]++;
      return { id: `${listUrl(purpose)}#${index}`, type: 'BitstringStatusListEntry', statusPurpose: purpose, statusListIndex: String(index), statusListCredential: listUrl(purpose) };
    },
    setStatus(entry, on) {
      bitstrings[entry.statusPurpose as 'revocation' | 'suspension'].set(Number(entry.statusListIndex), on);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      rmSync(caDir, { recursive: true, force: true });
      tls.dispose();
    },
  };
};
