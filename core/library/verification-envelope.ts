import type { CheckResult, RunSummary, verificationRuns } from '../../db/schema/index.ts';

export const CHECK_NAMES = ['retrieval', 'decryption', 'digest', 'proof', 'status', 'temporal', 'schemaConformance'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];
export type Checks = Record<CheckName, CheckResult>;

/** Checks whose failure makes a completed generation not conformant; temporal and schema conformance only advise. */
const BLOCKING: readonly CheckName[] = ['retrieval', 'decryption', 'digest', 'proof', 'status'];

/** Why a generation could not complete; `retryable` says whether asking again may help. */
export const FAILURE_CODES = [
  'RETRIEVAL_FAILED',
  'DECRYPTION_REQUIRED',
  'DECRYPTION_FAILED',
  'STORAGE_FAILED',
  'VERIFICATION_UNAVAILABLE',
  'STORED_COPY_UNAVAILABLE',
  'STORED_COPY_CORRUPT',
  'SOURCE_NOT_CREDENTIAL',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];
export interface RunFailure {
  code: FailureCode;
  message: string;
  retryable: boolean;
}

/** The one summary rule: a completed generation is verified only when no blocking check failed and the proof passed. */
export const summarise = (checks: Checks): Exclude<RunSummary, 'pending' | 'failed'> =>
  checks.proof === 'pass' && BLOCKING.every((name) => checks[name] !== 'fail') ? 'verified' : 'not_conformant';

export type RunRow = typeof verificationRuns.$inferSelect;

export interface VerificationEnvelope {
  generation: number;
  state: 'pending' | 'complete' | 'failed';
  requestedAt: string;
  completedAt?: string;
  checks: Checks;
  summary: RunSummary;
  failure?: RunFailure;
  sourceChanged?: boolean | null;
  lastSourceCheckAt?: string;
}

const NOT_RUN: Checks = {
  retrieval: 'not_run',
  decryption: 'not_run',
  digest: 'not_run',
  proof: 'not_run',
  status: 'not_run',
  temporal: 'not_run',
  schemaConformance: 'not_run',
};

/** Native generation 1 is not a run: issuing here asserted the proof when the record was written. */
export const issuanceAssertion = (createdAt: Date): VerificationEnvelope => ({
  generation: 1,
  state: 'complete',
  requestedAt: createdAt.toISOString(),
  completedAt: createdAt.toISOString(),
  checks: { ...NOT_RUN, proof: 'pass' },
  summary: 'verified',
});

/**
 * A run as the API shows it. A native record's copy is our own storage, so retrieval, decryption and
 * digest are masked as not_run: they describe our plumbing, not the credential.
 */
export const toEnvelope = (run: RunRow, origin: 'NATIVE' | 'EXTERNAL'): VerificationEnvelope => {
  const checks = Object.fromEntries(CHECK_NAMES.map((name) => [name, run[name] ?? 'not_run'])) as Checks;
  if (origin === 'NATIVE') Object.assign(checks, { retrieval: 'not_run', decryption: 'not_run', digest: 'not_run' });
  const state = run.state === 'PENDING' ? 'pending' : run.state === 'COMPLETE' ? 'complete' : 'failed';
  return {
    generation: run.generation,
    state,
    requestedAt: run.requestedAt.toISOString(),
    ...(run.completedAt && state !== 'pending' ? { completedAt: run.completedAt.toISOString() } : {}),
    checks,
    summary: run.summary,
    ...(state === 'failed'
      ? { failure: { code: run.failureCode as FailureCode, message: run.failureMessage ?? '', retryable: run.failureRetryable ?? false } }
      : {}),
    ...(run.lastSourceCheckAt && state !== 'pending'
      ? { sourceChanged: run.sourceChanged, lastSourceCheckAt: run.lastSourceCheckAt.toISOString() }
      : {}),
  };
};
