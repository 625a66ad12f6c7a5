import type { VerdictErrorType } from './outcome.ts';

/** VC service error codes by what they mean for the verdict (contract C.3: the RI maps errorCode substrings the same way). */
const STATUS_ERROR = /revok|suspen|status/i;
const TEMPORAL_ERROR = /expir|validfrom|validuntil|not.?before|nbf/i;

/**
 * What a stranger is told for each VC service error code: a fixed sentence, never the service's own
 * text (which may name hosts and addresses the issuer's DID or status list resolved to).
 */
const REASONS: Record<string, string> = {
  revoked: 'The credential was revoked by the issuer',
  suspended: 'The credential is suspended by the issuer',
  status_list_unavailable: "The credential's status list could not be read, so its status is unknown",
  status_list_invalid: "The credential's status list could not be verified, or the credential's status entry does not fit it",
  invalid_status: "The credential's status entry is malformed",
  resolver_error: "The issuer's DID document could not be resolved",
  invalid_signature: "The signature does not verify against a key in the issuer's DID document",
  invalid_jws: 'The credential is not a well-formed VC-JOSE compact JWS',
};
/** The issuer's DID not resolving, by the VC service's `didResolutionError` (W3C DID Resolution error names). */
const DID_REASONS: Record<string, string> = {
  methodNotSupported: "The issuer's DID uses a method that is not resolved here (did:web is)",
  invalidDid: "The issuer's DID is malformed",
  notFound: "The issuer's DID document could not be retrieved from its host",
  invalidDidDocument: "The issuer's DID document is not a valid document for that DID",
};
const FALLBACK: Record<VerdictErrorType, string> = {
  status: 'The status of the credential could not be confirmed',
  temporal: 'The credential is outside its validity period',
  integrity: 'The signature of the credential could not be verified',
};

/** The verdict a VC service's refusal means: its type, and the fixed message shown for it. */
export const verdictReason = (
  error: { message?: string; errorCode?: string; didResolutionError?: string } | undefined,
): { type: VerdictErrorType; message: string } => {
  const code = error?.errorCode ?? error?.message ?? '';
  const type: VerdictErrorType = STATUS_ERROR.test(code) ? 'status' : TEMPORAL_ERROR.test(code) ? 'temporal' : 'integrity';
  const known = (table: Record<string, string>, key: string | undefined) => (key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined);
  const didReason = error?.errorCode === 'resolver_error' ? known(DID_REASONS, error.didResolutionError) : undefined;
  return { type, message: didReason ?? known(REASONS, error?.errorCode) ?? FALLBACK[type] };
};
