import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compactVerify, CompactSign, exportJWK, generateKeyPair, type JWK } from 'jose';

/**
 * VCkit 1.1 in executable form (contracts/vckit.md), in-process: Bearer API key on /v2 and /agent,
 * did:web management, enveloped VC-JOSE issue (EdDSA, `typ: vc+jwt`, the VC JSON as payload),
 * verification, and bitstring status lists, with the contract's error bodies. It signs with keys it
 * holds and resolves only DIDs it manages (no HTTPS did:web fetch in tests).
 */
export interface VckitDouble {
  url: string;
  apiKey: string;
  calls: { path: string; body?: unknown }[];
  failNext(times?: number): void;
  close(): Promise<void>;
}

interface ManagedDid {
  did: string;
  alias: string;
  publicKeyHex: string;
  jwk: JWK;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

const read = (req: IncomingMessage) =>
  new Promise<Record<string, unknown>>((resolve) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      try {
        resolve(raw ? JSON.parse(raw) : {});
      } catch {
        resolve({});
      }
    });
  });

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

export const startVckitDouble = async (apiKey = 'vckit-double-key'): Promise<VckitDouble> => {
  const dids = new Map<string, ManagedDid>();
  const statusBits = new Map<string, boolean>();
  const calls: VckitDouble['calls'] = [];
  let nextStatusIndex = 0;
  let failures = 0;
  let base = '';

  const identifier = (d: ManagedDid) => ({
    did: d.did,
    alias: d.alias,
    provider: 'did:web',
    controllerKeyId: d.publicKeyHex,
    keys: [{ kid: d.publicKeyHex, type: 'Ed25519', publicKeyHex: d.publicKeyHex, kms: 'local', meta: { algorithms: ['EdDSA', 'Ed25519'] } }],
    services: [],
  });
  const document = (d: ManagedDid) => {
    const vm = { id: `${d.did}#${d.publicKeyHex}-JsonWebKey-key-0`, type: 'JsonWebKey', controller: d.did, publicKeyJwk: d.jwk };
    return { '@context': ['https://www.w3.org/ns/did/v1'], id: d.did, verificationMethod: [vm], authentication: [vm.id], assertionMethod: [vm.id], service: [] };
  };
  const issuerOf = (credential: Record<string, unknown>) =>
    typeof credential.issuer === 'string' ? credential.issuer : ((credential.issuer as { id?: string } | undefined)?.id ?? '');

  const routes: Record<string, (body: Record<string, unknown>) => Promise<[number, unknown]>> = {
    '/agent/didManagerCreate': async (b) => {
      const alias = String(b.alias ?? '');
      if (!alias) return [500, { error: 'invalid_argument: alias is required' }];
      // A host's port is percent-encoded (contract C.4); later colons separate path segments.
      const did = `did:web:${alias.replace(/^([^:%]+):(\d+)(?=:|$)/, '$1%3A$2')}`;
      if (dids.has(did)) return [500, { error: `Identifier with alias: ${alias}, provider: did:web already exists` }];
      const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
      const jwk = await exportJWK(publicKey);
      const publicKeyHex = hex(Buffer.from(jwk.x!, 'base64url'));
      const managed = { did, alias, publicKeyHex, jwk, privateKey, publicKey };
      dids.set(did, managed);
      return [200, identifier(managed)];
    },
    '/agent/didManagerGet': async (b) => {
      const d = dids.get(String(b.did));
      return d ? [200, identifier(d)] : [500, { error: 'Identifier not found' }];
    },
    '/agent/didManagerFind': async (b) => [200, [...dids.values()].filter((d) => !b.alias || d.alias === b.alias).map(identifier)],
    '/agent/didManagerDelete': async (b) => (dids.delete(String(b.did)) ? [200, true] : [500, { error: 'Identifier not found' }]),
    '/agent/resolveDid': async (b) => {
      const d = dids.get(String(b.didUrl).split('#')[0]!);
      return [200, d ? { didDocument: document(d), didResolutionMetadata: {}, didDocumentMetadata: {} } : { didDocument: null, didResolutionMetadata: { error: 'notFound' }, didDocumentMetadata: {} }];
    },
    '/v2/credentials/issue': async (b) => {
      const credential = (b.credential ?? {}) as Record<string, unknown>;
      if (!Array.isArray(credential.type) || !credential.type.includes('VerifiableCredential')) {
        return [500, { error: '"type" must include `VerifiableCredential`.' }];
      }
      const d = dids.get(issuerOf(credential));
      if (!d) return [500, { error: 'invalid_argument: credential.issuer must be a DID managed by this agent.' }];
      const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(credential)))
        .setProtectedHeader({ alg: 'EdDSA', kid: `${d.did}#${d.publicKeyHex}-JsonWebKey-key-0`, cty: 'vc', typ: 'vc+jwt' })
        .sign(d.privateKey);
      return [201, { verifiableCredential: { '@context': credential['@context'], type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${jws}` } }];
    },
    '/agent/routeVerificationCredential': async (b) => {
      const credential = (b.credential ?? {}) as Record<string, unknown>;
      const id = String(credential.id ?? '');
      const jwt = id.slice(id.indexOf(',') + 1);
      try {
        const [headerPart, payloadPart] = jwt.split('.');
        const header = JSON.parse(Buffer.from(headerPart!, 'base64url').toString());
        const payload = JSON.parse(Buffer.from(payloadPart!, 'base64url').toString());
        const d = dids.get(issuerOf(payload));
        if (!d || header.kid !== `${d.did}#${d.publicKeyHex}-JsonWebKey-key-0`) {
          return [200, { verified: false, error: { message: "kid does not match any key in the issuer's DID document", errorCode: 'invalid_signature' } }];
        }
        await compactVerify(jwt, d.publicKey);
        const status = payload.credentialStatus as { statusListCredential?: string; statusListIndex?: number } | undefined;
        const policies = (b.policies ?? {}) as Record<string, unknown>;
        if (status && policies.credentialStatus !== false && statusBits.get(`${status.statusListCredential}#${status.statusListIndex}`)) {
          return [200, { verified: false, error: { message: 'revoked: The credential was revoked by the issuer', errorCode: 'revoked' } }];
        }
        return [200, { verified: true, mediaType: 'vc+jwt', document: payload }];
      } catch (error) {
        return [200, { verified: false, error: { message: `invalid_signature: ${String(error)}`, errorCode: 'invalid_signature' } }];
      }
    },
    '/agent/issueBitstringStatusList': async (b) => {
      if (!dids.has(String(b.bitstringStatusIssuer))) return [500, { error: 'invalid_argument: bitstringStatusIssuer must be a DID managed by this agent' }];
      const listCredential = `${base}/credentials/status/bitstring-status-list/1`;
      const index = nextStatusIndex;
      nextStatusIndex += Number(b.statusSize ?? 1);
      return [200, { id: `${listCredential}#${index}`, type: 'BitstringStatusListEntry', statusPurpose: b.statusPurpose, statusListIndex: index, statusListCredential: listCredential }];
    },
    '/agent/setBitstringStatus': async (b) => {
      statusBits.set(`${b.statusListCredential}#${b.index}`, Boolean(b.status));
      return [200, { status: b.status }];
    },
    '/agent/checkBitstringStatus': async (b) => {
      const vc = (b.verifiableCredential ?? {}) as { credentialStatus?: { statusListCredential?: string; statusListIndex?: number } };
      if (!vc.credentialStatus) return [200, { revoked: false, message: 'credentialStatus property was not set on the original credential' }];
      return [200, { revoked: statusBits.get(`${vc.credentialStatus.statusListCredential}#${vc.credentialStatus.statusListIndex}`) ?? false }];
    },
  };

  const server = createServer(async (req, res: ServerResponse) => {
    const body = await read(req);
    const path = new URL(req.url!, 'http://double').pathname;
    calls.push({ path, body });
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (failures > 0) {
      failures -= 1;
      return reply(500, { error: 'internal: database unavailable' });
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return reply(401, { error: 'Unauthorized' });
    const handler = req.method === 'POST' ? routes[path] : undefined;
    if (!handler) return reply(404, { error: 'not_found: no such route' });
    const [status, payload] = await handler(body);
    reply(status, payload);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    apiKey,
    calls,
    failNext: (times = 1) => {
      failures = times;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
};
