import { createVerifier } from 'fast-jwt';
import { decodeProtectedHeader, type JWTPayload } from 'jose';
import { KeyObject } from 'node:crypto';
import type { ExpectedClaims, JwtVerifier } from './jwt-verifier.ts';

type Verify = (token: string) => JWTPayload;

/**
 * The Node web process's JwtVerifier: the same checks as jose's, with the signature checked by
 * node:crypto synchronously (fast-jwt) rather than by WebCrypto, whose asynchronous RSA verify costs
 * about twice the CPU per token (see the registrar bench's "verified per request" rows).
 *
 * jose's remote key set still chooses the key (by `kid` and `alg`, refetching an unknown `kid` with a
 * cooldown) and refuses an `alg` its key cannot have, such as an HMAC alg against a public key. Each key
 * it answers was imported for one `alg`: that key gets a fast-jwt verifier of its own, allowing exactly
 * that alg, the expected issuer and audience; fast-jwt checks `exp` and `nbf` with no clock tolerance,
 * as jose does, and caches no verdict (the Authenticator has its own cache).
 */
export const createNodeJwtVerifier = (): JwtVerifier => {
  // Per key, one verifier per expected issuer and audience (access tokens and ID tokens differ in audience).
  const verifiers = new WeakMap<CryptoKey, Map<string, Verify>>();
  const verifierFor = (key: CryptoKey, alg: string, expected: ExpectedClaims): Verify => {
    let byClaims = verifiers.get(key);
    if (!byClaims) verifiers.set(key, (byClaims = new Map()));
    const claimsKey = `${expected.issuer}\n${expected.audience}`;
    let verify = byClaims.get(claimsKey);
    if (!verify) {
      verify = createVerifier({
        key: KeyObject.from(key).export({ type: 'spki', format: 'pem' }).toString(),
        algorithms: [alg as never],
        allowedIss: expected.issuer,
        allowedAud: expected.audience,
        cache: false,
      }) as Verify;
      byClaims.set(claimsKey, verify);
    }
    return verify;
  };
  return async (token, jwks, expected) => {
    const header = decodeProtectedHeader(token);
    const { alg } = header;
    if (typeof alg !== 'string') throw new Error('The token header names no alg');
    const key = await jwks({ ...header, alg }, { payload: '', signature: '' });
    if (!(key instanceof CryptoKey)) throw new Error('The key set answered a key that is not a CryptoKey');
    return verifierFor(key, alg, expected)(token);
  };
};
