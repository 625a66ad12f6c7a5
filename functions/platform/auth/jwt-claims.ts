import type { JWTPayload } from 'jose';
import type { ExpectedClaims } from './jwt-verifier.ts';

/**
 * The checks of a signed JWT's protected header and claims set that jose's `jwtVerify` makes (RFC 7515
 * §4.1.11, RFC 7519 §4.1), for a verifier that checks the signature itself (node-jwt-verifier.ts). Each
 * throws on failure; the Authenticator turns any throw into a 401. jwt-verifiers.test.ts holds both
 * verifiers to the same verdicts.
 */

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The protected header: a JSON object naming its `alg`. `crit` may only name extensions we understand,
 * present in the header: that is `b64` alone, and a JWT's payload must be base64url-encoded (`b64: true`).
 */
export const checkProtectedHeader = (header: unknown): Record<string, unknown> & { alg: string } => {
  if (!isObject(header)) throw new Error('The JOSE header is not a JSON object');
  if (typeof header.alg !== 'string' || header.alg === '') throw new Error('The JOSE header names no alg');
  const { crit } = header;
  if (crit !== undefined) {
    if (!Array.isArray(crit) || crit.length === 0 || crit.some((name) => typeof name !== 'string' || name === '')) {
      throw new Error('crit must be an array of non-empty strings');
    }
    for (const name of crit as string[]) {
      if (name !== 'b64') throw new Error(`The critical extension ${name} is not understood`);
      if (header.b64 === undefined) throw new Error(`The critical extension ${name} is missing`);
    }
    if (typeof header.b64 !== 'boolean') throw new Error('b64 must be a boolean');
    if (!header.b64) throw new Error('A JWT must not use an unencoded payload');
  }
  return header as Record<string, unknown> & { alg: string };
};

const numericDate = (claims: Record<string, unknown>, name: 'iat' | 'nbf' | 'exp'): number | undefined => {
  const value = claims[name];
  if (value !== undefined && typeof value !== 'number') throw new Error(`${name} must be a number`);
  return value;
};

const audienceIncludes = (aud: unknown, audience: string) =>
  typeof aud === 'string' ? aud === audience : Array.isArray(aud) && aud.includes(audience);

/**
 * The claims set: a JSON object from the expected issuer, for the expected audience (one of an array
 * counts), with numeric `iat`, `nbf` and `exp` where present; not before `nbf`, and `exp` still ahead
 * of `nowSeconds` (no clock tolerance, as the jose check the edge runs).
 */
export const checkClaims = (claims: unknown, expected: ExpectedClaims, nowSeconds: number): JWTPayload => {
  if (!isObject(claims)) throw new Error('The JWT claims set is not a JSON object');
  if (claims.iss !== expected.issuer) throw new Error('Unexpected iss');
  if (!audienceIncludes(claims.aud, expected.audience)) throw new Error('Unexpected aud');
  numericDate(claims, 'iat');
  const nbf = numericDate(claims, 'nbf');
  if (nbf !== undefined && nbf > nowSeconds) throw new Error('The token is not valid yet');
  const exp = numericDate(claims, 'exp');
  if (exp !== undefined && exp <= nowSeconds) throw new Error('The token has expired');
  return claims as JWTPayload;
};
