import { base58btc } from 'multiformats/bases/base58';
import { invalidArgument } from './errors.ts';

const HOST = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const PATH_SEGMENT = /^([A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})+$/;
const PORT = /^\d{1,5}$/;

/**
 * did:web identifier of an alias (contract C.4): `host[:port][:path…]`, where a port (digits right
 * after the host, written `:3332` or already encoded `%3A3332`) becomes `%3A3332` and every further
 * colon separates a path segment. Hosts are lowercased; anything else is refused naming `alias`.
 */
export const didOfAlias = (alias: string): string => {
  const segments = alias.trim().split(':');
  const [first = '', ...rest] = segments;
  let [host = '', port] = first.split(/%3a/i);
  if (port === undefined && rest[0] !== undefined && PORT.test(rest[0])) port = rest.shift();
  host = host.toLowerCase();
  if (!HOST.test(host) || host.length > 253) throw invalidArgument(`alias: "${alias}" does not start with a valid host name`);
  if (port !== undefined && (!PORT.test(port) || Number(port) < 1 || Number(port) > 65535)) {
    throw invalidArgument(`alias: "${alias}" has an invalid port`);
  }
  for (const segment of rest) {
    if (!PATH_SEGMENT.test(segment)) throw invalidArgument(`alias: "${alias}" has an invalid path segment "${segment}"`);
  }
  return ['did:web', `${host}${port !== undefined ? `%3A${port}` : ''}`, ...rest].join(':');
};

/** Where a did:web document lives (did:web method spec): host[:port]/.well-known/did.json or /path/did.json. */
export const didWebUrl = (did: string): URL | undefined => {
  if (!did.startsWith('did:web:')) return undefined;
  const [hostPart = '', ...path] = did.slice('did:web:'.length).split(':');
  try {
    const host = decodeURIComponent(hostPart);
    const file = path.length ? `/${path.map((p) => encodeURIComponent(decodeURIComponent(p))).join('/')}/did.json` : '/.well-known/did.json';
    const url = new URL(`https://${host}${file}`);
    return url.host === host.toLowerCase() || url.host === host ? url : undefined;
  } catch {
    return undefined;
  }
};

/** The DID a document request names: the Host header (port encoded) plus the request path's segments. */
export const didOfDocumentRequest = (hostHeader: string, pathSegments: string[]): string =>
  ['did:web', hostHeader.toLowerCase().replace(':', '%3A'), ...pathSegments].join(':');

export const ed25519Jwk = (publicKeyHex: string) => ({ kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') });

/** The verification method id our JWS `kid` names (contract C.2): the `JsonWebKey` method of the key at `index` in the document. */
export const signingKid = (did: string, publicKeyHex: string, index = 0) => `${did}#${publicKeyHex}-JsonWebKey-key-${index}`;

/** Ed25519 public key as multibase (base58btc of the multicodec 0xed01 prefix plus the key). */
const ed25519Multibase = (publicKeyHex: string) => base58btc.encode(Uint8Array.from([0xed, 0x01, ...Buffer.from(publicKeyHex, 'hex')]));

/** The did:web document for a DID's keys: three verification methods per key (contract C.4). */
export const didDocument = (did: string, publicKeyHexes: string[]) => {
  const methods = publicKeyHexes.flatMap((hex, i) => [
    { id: `${did}#${hex}`, type: 'Ed25519VerificationKey2020', controller: did, publicKeyMultibase: ed25519Multibase(hex) },
    { id: `${did}#${hex}-JsonWebKey2020-key-${i}`, type: 'JsonWebKey2020', controller: did, publicKeyJwk: ed25519Jwk(hex) },
    { id: `${did}#${hex}-JsonWebKey-key-${i}`, type: 'JsonWebKey', controller: did, publicKeyJwk: ed25519Jwk(hex) },
  ]);
  const ids = methods.map((m) => m.id);
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/ed25519-2020/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: methods,
    authentication: ids,
    assertionMethod: ids,
    service: [],
  };
};

export type DidDocument = ReturnType<typeof didDocument>;
