import { createPublicKey } from 'node:crypto';
import type { JWK } from 'jose';
import { base58btc } from 'multiformats/bases/base58';

/** Multicodec prefixes (varint) of the public keys a `publicKeyMultibase` carries. */
const ED25519_PUB = [0xed, 0x01];
const P256_PUB = [0x80, 0x24];
/** DER SubjectPublicKeyInfo head of a compressed P-256 point (id-ecPublicKey, prime256v1, 33-byte bit string). */
const P256_SPKI_HEAD = Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex');

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The JWK of a multibase (base58btc, `z…`) multicodec public key: Ed25519 or P-256; undefined for anything else. */
const jwkOfMultibase = (value: string): JWK | undefined => {
  let bytes: Uint8Array;
  try {
    bytes = base58btc.decode(value);
  } catch {
    return undefined;
  }
  if (startsWith(bytes, ED25519_PUB) && bytes.length === 34) {
    return { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes.subarray(2)).toString('base64url') };
  }
  if (startsWith(bytes, P256_PUB) && bytes.length === 35) {
    try {
      const key = createPublicKey({ key: Buffer.concat([P256_SPKI_HEAD, bytes.subarray(2)]), format: 'der', type: 'spki' });
      const { kty, crv, x, y } = key.export({ format: 'jwk' });
      return { kty, crv, x, y };
    } catch {
      return undefined;
    }
  }
  return undefined;
};

/** Verification method types whose key is a `publicKeyJwk`, and those whose key is a `publicKeyMultibase`. */
const JWK_TYPES = new Set(['JsonWebKey', 'JsonWebKey2020']);
const MULTIBASE_TYPES = new Set(['Ed25519VerificationKey2020', 'Multikey']);
export const VERIFICATION_METHOD_TYPES = [...JWK_TYPES, ...MULTIBASE_TYPES];

/**
 * The public key of a DID document's verification method as a JWK, for the common types: `JsonWebKey`
 * and `JsonWebKey2020` (`publicKeyJwk`, private members dropped), `Ed25519VerificationKey2020` and
 * `Multikey` (`publicKeyMultibase`: Ed25519, or P-256 for Multikey). Undefined when the method
 * carries no key we can read.
 */
export const publicJwkOf = (method: Record<string, unknown>): JWK | undefined => {
  const type = method.type;
  if (typeof type !== 'string') return undefined;
  if (JWK_TYPES.has(type)) {
    const jwk = method.publicKeyJwk;
    if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) return undefined;
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicPart } = jwk as JWK;
    return publicPart;
  }
  if (MULTIBASE_TYPES.has(type) && typeof method.publicKeyMultibase === 'string') {
    return jwkOfMultibase(method.publicKeyMultibase);
  }
  return undefined;
};

/**
 * The verification method a JWS `kid` names in the issuer's DID document: the whole DID URL, or a
 * fragment (`#key-1`) of the DID. Methods may be listed in `verificationMethod` or embedded in
 * `assertionMethod`, with absolute or relative ids. A kid of another DID names nothing here.
 */
export const methodOfKid = (document: Record<string, unknown>, did: string, kid: string): Record<string, unknown> | undefined => {
  const absolute = (id: string) => (id.startsWith('#') ? `${did}${id}` : id);
  const wanted = absolute(kid);
  if (!wanted.startsWith(`${did}#`)) return undefined;
  const listed = [document.verificationMethod, document.assertionMethod].flatMap((value) => (Array.isArray(value) ? (value as unknown[]) : []));
  return listed.find(
    (m): m is Record<string, unknown> => !!m && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string' && absolute((m as { id: string }).id) === wanted,
  );
};
