import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import type { DidResolver } from './did-resolver.ts';
import { asObject } from './errors.ts';
import { issuerIdOf } from './signing.ts';
import type { StatusLists } from './status-lists.ts';

export type VerifyResult =
  | { verified: true; mediaType: 'vc+jwt'; document: Record<string, unknown> }
  | { verified: false; error: { message: string; errorCode: string } };

const failed = (errorCode: string, message: string): VerifyResult => ({ verified: false, error: { message: `${errorCode}: ${message}`, errorCode } });

const decodeJson = (part: string | undefined): unknown => {
  try {
    return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};

/** Public keys imported from JWKs, by their JSON text: importing costs more than verifying. */
const MAX_IMPORTED_KEYS = 1000;

/**
 * `routeVerificationCredential` (contract C.3) for enveloped VC-JOSE credentials: header checks, the
 * issuer's DID document, `kid` → a `JsonWebKey` verification method → signature, then the status
 * entries unless `policies.credentialStatus` is false.
 */
export const createVerifier = (deps: { resolver: DidResolver; statusLists: StatusLists }) => {
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

  const statusFailure = async (payload: Record<string, unknown>): Promise<VerifyResult | undefined> => {
    const status = payload.credentialStatus;
    if (status === undefined || status === null) return undefined;
    for (const entry of (Array.isArray(status) ? status : [status]) as unknown[]) {
      if (!entry || typeof entry !== 'object') return failed('invalid_status', 'credentialStatus entries must be objects');
      const bit = await deps.statusLists.bitOf(entry as Record<string, unknown>);
      if (!bit) return failed('status_unknown', `the status list ${String((entry as { statusListCredential?: unknown }).statusListCredential)} is not held by this service or the index is outside it`);
      if (bit.set && bit.purpose === 'revocation') return failed('revoked', 'The credential was revoked by the issuer');
      if (bit.set && bit.purpose === 'suspension') return failed('suspended', 'The credential is suspended by the issuer');
    }
    return undefined;
  };

  return async (body: Record<string, unknown>): Promise<VerifyResult> => {
    const credential = asObject(body.credential, 'credential');
    const policies = body.policies === undefined ? {} : asObject(body.policies, 'policies');
    if (credential.type !== 'EnvelopedVerifiableCredential' || typeof credential.id !== 'string' || !credential.id.startsWith('data:')) {
      return failed('invalid_argument', 'only EnvelopedVerifiableCredential credentials (data: URL with a JWS) are verified here');
    }
    const jws = credential.id.slice(credential.id.indexOf(',') + 1);
    const parts = jws.split('.');
    if (parts.length !== 3) return failed('invalid_jws', 'the credential is not a compact JWS');
    let header: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(jws) as Record<string, unknown>;
    } catch {
      return failed('invalid_jws', 'the JWS protected header is not JSON');
    }
    const payload = decodeJson(parts[1]);
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return failed('invalid_jws', 'the JWS payload is not a JSON object');
    const document = payload as Record<string, unknown>;
    const issuer = issuerIdOf(document);
    if (typeof header.alg !== 'string' || header.alg === 'none') return failed('invalid_jws', 'the JWS alg must be a signature algorithm');
    if (typeof header.kid !== 'string') return failed('invalid_jws', 'the JWS header has no kid');
    if (header.iss !== undefined && header.iss !== issuer) return failed('invalid_jws', 'the JWS iss does not match the credential issuer');
    for (const name of ['cty', 'typ']) {
      if (header[name] !== undefined && typeof header[name] !== 'string') return failed('invalid_jws', `the JWS ${name} must be a string`);
    }
    if (!issuer) return failed('invalid_argument', 'the credential has no issuer');

    const resolved = await deps.resolver.resolve(issuer);
    if ('error' in resolved) return failed('resolver_error', `Unable to resolve the issuer's DID document: ${resolved.error}`);
    const kid = header.kid.startsWith('#') ? `${issuer}${header.kid}` : header.kid;
    const methods = Array.isArray(resolved.document.verificationMethod) ? (resolved.document.verificationMethod as Record<string, unknown>[]) : [];
    const method = methods.find((m) => m && m.id === kid);
    if (!method || method.type !== 'JsonWebKey' || !method.publicKeyJwk || typeof method.publicKeyJwk !== 'object') {
      return failed('invalid_signature', "kid does not match any key in the issuer's DID document");
    }
    try {
      const key = await importKey(method.publicKeyJwk as JWK, header.alg);
      await compactVerify(jws, key, { algorithms: ['EdDSA', 'Ed25519', 'ES256', 'ES384', 'PS256', 'RS256'] });
    } catch (error) {
      return failed('invalid_signature', `the signature does not verify (${error instanceof Error ? error.message : String(error)})`);
    }
    if (policies.credentialStatus !== false) {
      const status = await statusFailure(document);
      if (status) return status;
    }
    return { verified: true, mediaType: 'vc+jwt', document };
  };
};
