import { asObject } from './errors.ts';
import type { JwsChecker } from './jws-check.ts';
import type { StatusReader } from './status-reader.ts';

export type VerifyResult =
  | { verified: true; mediaType: 'vc+jwt'; document: Record<string, unknown> }
  | { verified: false; error: { message: string; errorCode: string; didResolutionError?: string } };

const failed = (errorCode: string, message: string, didResolutionError?: string): VerifyResult => ({
  verified: false,
  error: { message: `${errorCode}: ${message}`, errorCode, ...(didResolutionError ? { didResolutionError } : {}) },
});

/**
 * `routeVerificationCredential` (contract C.3) for enveloped VC-JOSE credentials of any issuer: the
 * JWS checked against the issuer's DID document, then every status entry unless
 * `policies.credentialStatus` is false. A status list that cannot be read or verified fails the
 * credential with its own errorCode (`status_list_unavailable`, `status_list_invalid`).
 */
export const createVerifier = (deps: { checkJws: JwsChecker; readStatus: StatusReader }) => {
  const statusFailure = async (payload: Record<string, unknown>): Promise<VerifyResult | undefined> => {
    const status = payload.credentialStatus;
    if (status === undefined || status === null) return undefined;
    for (const entry of (Array.isArray(status) ? status : [status]) as unknown[]) {
      if (!entry || typeof entry !== 'object') return failed('invalid_status', 'credentialStatus entries must be objects');
      const bit = await deps.readStatus(entry as Record<string, unknown>);
      if ('errorCode' in bit) return failed(bit.errorCode, bit.message);
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
    const checked = await deps.checkJws(credential.id.slice(credential.id.indexOf(',') + 1));
    if ('failure' in checked) return failed(checked.failure.errorCode, checked.failure.message, checked.failure.didResolutionError);
    if (policies.credentialStatus !== false) {
      const status = await statusFailure(checked.payload);
      if (status) return status;
    }
    return { verified: true, mediaType: 'vc+jwt', document: checked.payload };
  };
};
