import { credentialTypeOf, metrics } from '../metrics/recorder.ts';
import { timedStep } from '../metrics/timed-step.ts';
import type { Queryable } from '../../db/client.ts';
import { AdapterError } from '../adapters/adapter-errors.ts';
import type { VerifyResult } from '../adapters/vc/vc-adapter.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { systemVcInstance, vcAdapterFor, type VcInstance } from '../dids/vc-instance.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import { decryptEnvelope, isEncryptionEnvelope } from './decryption.ts';
import { checkDigest, type ExpectedDigest } from './digest.ts';
import { decodeEnvelopedPayload, requireEnvelopedCredential } from './enveloped-credential.ts';
import { initialChecks, VerificationStop, type Checks, type EnvelopedCredential, type Verdict, type VerificationReport } from './outcome.ts';
import { retrieve } from './retrieve.ts';
import { validityProblem } from './validity-window.ts';
import { verdictReason } from './verdict-reason.ts';

export interface VerificationDeps {
  db: Queryable;
  box: SecretBox;
  fetcher: Fetcher;
  logger: Logger;
  allowPrivateUrls: boolean;
  correlationId?: string;
  /** The system VC instance when it was read already for this request (verification-admission.ts); else read here. */
  systemVc?: { instance: VcInstance | undefined };
}

export interface VerificationInput extends ExpectedDigest {
  uri: string;
  /** 64 hexadecimal characters (AES-256-GCM key); never logged. */
  decryptionKey?: string;
  /** The moment the validity window is judged at (default: now). */
  now?: Date;
}

const verifyWithSystemVc = async (deps: VerificationDeps, credential: EnvelopedCredential): Promise<VerifyResult> => {
  const instance = deps.systemVc ? deps.systemVc.instance : await systemVcInstance(deps.db);
  if (!instance) throw new VerificationStop('VC_SERVICE_ERROR', 'No VC service is configured to verify credentials');
  const { adapter } = await vcAdapterFor(deps, instance);
  try {
    return await adapter.verify(credential as Parameters<typeof adapter.verify>[0], { checkStatus: true });
  } catch (error) {
    if (!(error instanceof AdapterError)) throw error;
    deps.logger.warn('Credential verification: the VC service failed', {
      correlationId: deps.correlationId,
      kind: error.kind,
      upstreamStatus: error.status,
      detail: error.message,
    });
    throw new VerificationStop('VC_SERVICE_ERROR', 'The VC service is unavailable; the credential could not be verified');
  }
};

/** Proof, status and validity window of an enveloped credential, recorded in `checks`. */
const judge = async (deps: VerificationDeps, credential: EnvelopedCredential, checks: Checks, now: Date): Promise<Verdict> => {
  const result = await timedStep('verification', 'proof', () => verifyWithSystemVc(deps, credential));
  const decodedCredential = decodeEnvelopedPayload(credential);
  const warnings: string[] = [];
  let error: Verdict['error'];
  if (result.verified) {
    checks.proof = 'pass';
  } else {
    // The service's own text stays in the log: it may name the hosts an issuer's DID or status list resolved to.
    const unreadable = /resolver|status_list/.test(result.error?.errorCode ?? '');
    deps.logger[unreadable ? 'warn' : 'info']('Credential verification: the VC service did not verify the credential', {
      correlationId: deps.correlationId,
      errorCode: result.error?.errorCode,
      detail: result.error?.message,
    });
    error = verdictReason(result.error);
    checks.proof = error.type === 'integrity' ? 'fail' : 'pass';
    if (error.type === 'status') checks.status = 'fail';
    if (error.type === 'temporal') checks.temporal = 'fail';
  }
  if (checks.proof === 'pass' && decodedCredential) {
    const hasStatus = decodedCredential.credentialStatus !== undefined && decodedCredential.credentialStatus !== null;
    if (checks.status === 'not_run') checks.status = hasStatus ? 'pass' : 'not_run';
    if (!hasStatus) warnings.push('The credential has no credentialStatus: revocation and suspension were not checked');
    if (checks.temporal === 'not_run') {
      const problem = validityProblem(decodedCredential, now);
      checks.temporal = problem ? 'fail' : 'pass';
      if (problem && !error) error = { type: 'temporal', message: problem };
    }
  }
  return { verified: error === undefined, credential, ...(decodedCredential ? { decodedCredential } : {}), warnings, ...(error ? { error } : {}) };
};

/**
 * The public verification pipeline, shared by the verify route and the library's worker: guarded
 * fetch → decrypt the storage envelope → compare the digest → require an EnvelopedVerifiableCredential
 * → verify (proof and status) through the system VC service → validity window → decode. Never
 * throws for anything the source or the caller got wrong: the report says which check failed.
 */
const verifySteps = async (deps: VerificationDeps, input: VerificationInput): Promise<VerificationReport> => {
  const checks = initialChecks();
  const warnings: string[] = [];
  let stage: keyof Checks = 'retrieval';
  try {
    const retrieved = await timedStep('verification', 'retrieve', () => retrieve(deps.fetcher, input.uri, deps.allowPrivateUrls));
    checks.retrieval = 'pass';
    let { bytes, document } = retrieved;
    if (isEncryptionEnvelope(document)) {
      stage = 'decryption';
      ({ bytes, document } = await timedStep('verification', 'decrypt', () => decryptEnvelope(document, input.decryptionKey)));
      checks.decryption = 'pass';
    } else if (input.decryptionKey !== undefined) {
      warnings.push('decryptionKey was not used: the credential is not encrypted');
    }
    if (input.digestMultibase !== undefined || input.hash !== undefined) {
      stage = 'digest';
      await timedStep('verification', 'digest', () => checkDigest(input, bytes, document));
      checks.digest = 'pass';
    } else {
      warnings.push('No digestMultibase or hash was given: the content was not compared with an integrity value');
    }
    stage = 'envelope';
    const credential = requireEnvelopedCredential(document);
    checks.envelope = 'pass';
    stage = 'proof';
    const verdict = await judge(deps, credential, checks, input.now ?? new Date());
    return { checks, completed: true, verdict: { ...verdict, warnings: [...warnings, ...verdict.warnings] } };
  } catch (error) {
    if (!(error instanceof VerificationStop)) throw error;
    // A VC service failure leaves the proof unjudged; every other stop is the check that was running.
    if (error.code !== 'VC_SERVICE_ERROR') checks[stage] = 'fail';
    return { checks, completed: false, failure: { code: error.code, message: error.message } };
  }
};

/** Counted for `/metrics` by credential type and outcome; a credential that does not verify is logged at info with its reason. */
export const verifyCredential = async (deps: VerificationDeps, input: VerificationInput): Promise<VerificationReport> => {
  const report = await verifySteps(deps, input);
  const type = report.completed ? credentialTypeOf(report.verdict.decodedCredential) : 'unknown';
  const outcome = report.completed ? (report.verdict.verified ? 'verified' : 'not_verified') : report.failure.code;
  metrics().verification(type, outcome);
  if (outcome !== 'verified') {
    const reason = report.completed ? report.verdict.error?.type : report.failure.code;
    deps.logger.info('Credential not verified', { correlationId: deps.correlationId, credentialType: type, outcome, reason });
  }
  return report;
};
