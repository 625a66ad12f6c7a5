/**
 * What one verification found: each check's outcome, and either a verdict (the pipeline ran to the
 * end) or the failure that stopped it. The web route renders it; the library worker maps the checks
 * onto its verification envelope (schema conformance is the library's own check).
 */
export type CheckName = 'retrieval' | 'decryption' | 'digest' | 'envelope' | 'proof' | 'status' | 'temporal';
export type CheckOutcome = 'pass' | 'fail' | 'not_run';
export type Checks = Record<CheckName, CheckOutcome>;

/** Why the pipeline stopped before a verdict; `status` is the HTTP status the public route answers. */
export type FailureCode =
  | 'URI_NOT_ALLOWED'
  | 'UPSTREAM_ERROR'
  | 'INVALID_RESPONSE'
  | 'DECRYPTION_REQUIRED'
  | 'ENVELOPE_INVALID'
  | 'DECRYPTION_FAILED'
  | 'DECRYPTED_NOT_JSON'
  | 'DIGEST_MISMATCH'
  | 'UNSUPPORTED_CREDENTIAL_TYPE'
  | 'VC_SERVICE_ERROR';

export const FAILURE_STATUS: Record<FailureCode, 400 | 422 | 502> = {
  URI_NOT_ALLOWED: 400,
  UPSTREAM_ERROR: 502,
  INVALID_RESPONSE: 422,
  DECRYPTION_REQUIRED: 422,
  ENVELOPE_INVALID: 422,
  DECRYPTION_FAILED: 422,
  DECRYPTED_NOT_JSON: 422,
  DIGEST_MISMATCH: 422,
  UNSUPPORTED_CREDENTIAL_TYPE: 422,
  VC_SERVICE_ERROR: 502,
};

export interface VerificationFailure {
  code: FailureCode;
  message: string;
}

/** Why a credential that was checked to the end is not verified. */
export type VerdictErrorType = 'integrity' | 'status' | 'temporal';

export interface EnvelopedCredential {
  '@context'?: unknown;
  type: unknown;
  id: string;
  [key: string]: unknown;
}

export interface Verdict {
  verified: boolean;
  /** The enveloped credential as retrieved (after decryption). */
  credential: EnvelopedCredential;
  /** The JWS payload; absent when it cannot be decoded as a JSON object. */
  decodedCredential?: Record<string, unknown>;
  warnings: string[];
  /** Only when not verified: the first failed check, in pipeline order. */
  error?: { type: VerdictErrorType; message: string };
}

export type VerificationReport = { checks: Checks } & ({ completed: true; verdict: Verdict } | { completed: false; failure: VerificationFailure });

/** A failure raised inside the pipeline; `verifyCredential` turns it into a report. */
export class VerificationStop extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message);
  }
}

export const initialChecks = (): Checks => ({
  retrieval: 'not_run',
  decryption: 'not_run',
  digest: 'not_run',
  envelope: 'not_run',
  proof: 'not_run',
  status: 'not_run',
  temporal: 'not_run',
});
