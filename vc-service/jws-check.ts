import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import type { DidResolver } from './did-resolver.ts';
import { issuerIdOf } from './signing.ts';
import { methodOfKid, publicJwkOf, VERIFICATION_METHOD_TYPES } from './verification-methods.ts';

/** Why a JWS did not verify: VCkit's `errorCode` and a message for the caller. */
export interface JwsFailure {
  errorCode: string;
  message: string;
  /** With `resolver_error`: why the issuer's DID did not resolve (W3C DID Resolution error name). */
  didResolutionError?: string;
}

export type JwsCheck = { payload: Record<string, unknown>; issuer: string } | { failure: JwsFailure };

const ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256', 'ES384', 'PS256', 'RS256'];
/** Public keys imported from JWKs, by their JSON text: importing costs more than verifying. */
const MAX_IMPORTED_KEYS = 1000;

const fail = (errorCode: string, message: string): JwsCheck => ({ failure: { errorCode, message } });

const decodeJson = (part: string | undefined): unknown => {
  try {
    return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};

/**
 * A VC-JOSE compact JWS whose payload is a credential, checked against its issuer: header rules,
 * the issuer's DID document (ours from the store, any other did:web fetched), the verification method
 * the `kid` names (any of the common key types), then the signature. Used for credentials and for the
 * status list credentials their status entries point to.
 */
export const createJwsChecker = (deps: { resolver: DidResolver }) => {
  const imported = new Map<string, Awaited<ReturnType<typeof importJWK>>>();
  const importKey = async (jwk: JWK, alg: string) => {
    const text = `${alg} ${JSON.stringify(jwk)}`;
    let key = imported.get(text);
    if (!key) {
      key = await importJWK(jwk, alg);
      if (imported.size >= MAX_IMPORTED_KEYS) imported.delete(imported.keys().next().value!);
      imported.set(text, key);
    }
    return key;
  };

  return async (jws: string): Promise<JwsCheck> => {
    const parts = jws.split('.');
    if (parts.length !== 3) return fail('invalid_jws', 'the credential is not a compact JWS');
    let header: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(jws) as Record<string, unknown>;
    } catch {
      return fail('invalid_jws', 'the JWS protected header is not JSON');
    }
    const payload = decodeJson(parts[1]);
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return fail('invalid_jws', 'the JWS payload is not a JSON object');
    const document = payload as Record<string, unknown>;
    const issuer = issuerIdOf(document);
    if (typeof header.alg !== 'string' || header.alg === 'none') return fail('invalid_jws', 'the JWS alg must be a signature algorithm');
    if (typeof header.kid !== 'string') return fail('invalid_jws', 'the JWS header has no kid');
    if (header.iss !== undefined && header.iss !== issuer) return fail('invalid_jws', 'the JWS iss does not match the credential issuer');
    for (const name of ['cty', 'typ']) {
      if (header[name] !== undefined && typeof header[name] !== 'string') return fail('invalid_jws', `the JWS ${name} must be a string`);
    }
    if (!issuer) return fail('invalid_argument', 'the credential has no issuer');

    const resolved = await deps.resolver.resolve(issuer);
    if ('error' in resolved) {
      return { failure: { errorCode: 'resolver_error', message: `Unable to resolve the issuer's DID document: ${resolved.error}`, didResolutionError: resolved.kind } };
    }
    const method = methodOfKid(resolved.document, issuer, header.kid);
    const jwk = method && publicJwkOf(method);
    if (!jwk) {
      return fail('invalid_signature', `kid does not match any key in the issuer's DID document (methods of type ${VERIFICATION_METHOD_TYPES.join(', ')})`);
    }
    try {
      await compactVerify(jws, await importKey(jwk, header.alg), { algorithms: ALGORITHMS });
    } catch (error) {
      return fail('invalid_signature', `the signature does not verify (${error instanceof Error ? error.message : String(error)})`);
    }
    return { payload: document, issuer };
  };
};

export type JwsChecker = ReturnType<typeof createJwsChecker>;
