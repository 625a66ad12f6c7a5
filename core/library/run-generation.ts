import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { libraryRecords, verificationRuns } from '../../db/schema/index.ts';
import type { PayloadChecks } from '../credentials/payload-validation.ts';
import type { DomainDeps } from '../deps.ts';
import type { VerificationReport } from '../verification/outcome.ts';
import { verifyCredential } from '../verification/verify-credential.ts';
import { externalDetailsOf } from './record-details.ts';
import { loadRecordView, type RecordView } from './record-queries.ts';
import { fetchSource, sha256Multibase } from './source-content.ts';
import { checkSchemaConformance } from './schema-conformance.ts';
import { storedCopyOf, unwrapKey } from './stored-copy.ts';
import { summarise, type Checks, type RunFailure } from './verification-envelope.ts';

export type Settlement =
  | { state: 'COMPLETE'; checks: Checks; details?: Record<string, unknown>; schemaConformanceMessage?: string }
  | { state: 'FAILED'; checks: Checks; failure: RunFailure };

const fail = (checks: Checks, code: RunFailure['code'], message: string, retryable: boolean): Settlement => ({
  state: 'FAILED',
  checks,
  failure: { code, message, retryable },
});

/** Which library failure a stopped pipeline is: a copy we cannot read is worth retrying, one that is damaged is not. */
const FAILURES: Record<string, { code: RunFailure['code']; retryable: boolean }> = {
  URI_NOT_ALLOWED: { code: 'STORED_COPY_UNAVAILABLE', retryable: true },
  UPSTREAM_ERROR: { code: 'STORED_COPY_UNAVAILABLE', retryable: true },
  INVALID_RESPONSE: { code: 'STORED_COPY_CORRUPT', retryable: false },
  ENVELOPE_INVALID: { code: 'STORED_COPY_CORRUPT', retryable: false },
  DECRYPTED_NOT_JSON: { code: 'STORED_COPY_CORRUPT', retryable: false },
  DIGEST_MISMATCH: { code: 'STORED_COPY_CORRUPT', retryable: false },
  DECRYPTION_REQUIRED: { code: 'DECRYPTION_REQUIRED', retryable: false },
  DECRYPTION_FAILED: { code: 'DECRYPTION_FAILED', retryable: false },
  UNSUPPORTED_CREDENTIAL_TYPE: { code: 'SOURCE_NOT_CREDENTIAL', retryable: false },
  VC_SERVICE_ERROR: { code: 'VERIFICATION_UNAVAILABLE', retryable: true },
};

/** The verification pipeline's report as the library's seven checks (schema conformance is judged afterwards, on a verdict). */
const toSettlement = (report: VerificationReport): Settlement => {
  const { retrieval, decryption, digest, proof, status, temporal } = report.checks;
  const checks: Checks = { retrieval, decryption, digest, proof, status, temporal, schemaConformance: 'not_run' };
  if (report.completed) return { state: 'COMPLETE', checks, details: report.verdict.decodedCredential };
  const mapped = FAILURES[report.failure.code] ?? { code: 'VERIFICATION_UNAVAILABLE', retryable: true };
  return fail(checks, mapped.code, report.failure.message, mapped.retryable);
};

/** Verifies the record's stored copy: our own storage for both origins (the issued envelope, or the durable copy). */
const verifyStoredCopy = async (deps: DomainDeps, view: RecordView): Promise<Settlement> => {
  const none: Checks = { retrieval: 'not_run', decryption: 'not_run', digest: 'not_run', proof: 'not_run', status: 'not_run', temporal: 'not_run', schemaConformance: 'not_run' };
  if (view.external?.unopened) {
    return fail({ ...none, retrieval: 'pass', decryption: 'fail' }, 'DECRYPTION_REQUIRED', 'The credential is encrypted and no key was supplied to open it.', false);
  }
  const copy = storedCopyOf(view);
  if (!copy) return fail(none, 'STORED_COPY_UNAVAILABLE', 'The record has no stored copy.', false);
  const key = copy.wrappedKey === null ? undefined : await unwrapKey(deps.box, copy.wrappedKey);
  if (copy.wrappedKey !== null && key === undefined) {
    return fail(none, 'STORED_COPY_UNAVAILABLE', 'The key of the stored copy cannot be opened.', false);
  }
  return toSettlement(await verifyCredential(deps, { uri: copy.storageUri, digestMultibase: copy.digestMultibase, decryptionKey: key }));
};

/** A later generation of an external record also asks whether the source still answers the same bytes. */
const checkSourceFreshness = async (deps: DomainDeps, view: RecordView, generation: number) => {
  if (!view.external || generation < 2) return undefined;
  try {
    const source = await fetchSource(deps.fetcher, view.external.sourceUrl, deps.allowPrivateUrls);
    return { sourceChanged: (await sha256Multibase(source.bytes)) !== view.external.sourceDigest, lastSourceCheckAt: new Date() };
  } catch {
    return { sourceChanged: null, lastSourceCheckAt: new Date() };
  }
};

/** What a generation needs besides the domain deps: the process's compiled schemas (`payloadChecksFor`). */
export type GenerationDeps = DomainDeps & { payloadChecks: PayloadChecks };

/** Writes a generation's outcome, only while it is still pending (a sweep may have settled it first). */
export const settleRun = async (
  tx: Queryable,
  runId: string,
  settlement: Settlement,
  extra: { sourceChanged?: boolean | null; lastSourceCheckAt?: Date } = {},
): Promise<boolean> => {
  const settled = await tx
    .update(verificationRuns)
    .set({
      state: settlement.state,
      summary: settlement.state === 'COMPLETE' ? summarise(settlement.checks) : 'failed',
      ...settlement.checks,
      ...(settlement.state === 'COMPLETE' && settlement.schemaConformanceMessage ? { schemaConformanceMessage: settlement.schemaConformanceMessage } : {}),
      ...(settlement.state === 'FAILED'
        ? { failureCode: settlement.failure.code, failureMessage: settlement.failure.message, failureRetryable: settlement.failure.retryable }
        : {}),
      ...extra,
      completedAt: new Date(),
    })
    .where(and(eq(verificationRuns.id, runId), eq(verificationRuns.state, 'PENDING')))
    .returning({ id: verificationRuns.id });
  return settled.length > 0;
};

/**
 * The worker's step for one generation (queue library.verify-generation): a run that is gone or
 * already settled is left alone (a repeated or late job); otherwise the stored copy is verified and
 * the outcome, with the details read from the credential, is written in one transaction. An
 * unexpected error throws, so the queue retries; the sweep settles a run whose job gave up.
 */
export const runGeneration = async (deps: GenerationDeps, job: { tenantId: string; recordId: string; generation: number }): Promise<void> => {
  const [run] = await deps.db
    .select()
    .from(verificationRuns)
    .where(and(eq(verificationRuns.recordId, job.recordId), eq(verificationRuns.tenantId, job.tenantId), eq(verificationRuns.generation, job.generation)));
  if (!run || run.state !== 'PENDING') return;
  const view = await loadRecordView(deps.db, job.tenantId, job.recordId);
  if (!view) return;
  const settlement = await verifyStoredCopy(deps, view);
  if (settlement.state === 'COMPLETE' && settlement.details && settlement.checks.proof === 'pass') {
    const conformance = await checkSchemaConformance(deps, job.tenantId, view, settlement.details);
    settlement.checks.schemaConformance = conformance.result;
    settlement.schemaConformanceMessage = conformance.message;
  }
  const freshness = await checkSourceFreshness(deps, view, job.generation);
  await deps.db.transaction(async (tx) => {
    const settled = await settleRun(tx, run.id, settlement, freshness);
    if (!settled || settlement.state !== 'COMPLETE' || !settlement.details) return;
    // The credential as verified is the authority for an external record's details; a native record's were written at issuance.
    const details = view.external
      ? externalDetailsOf(settlement.details, { declaredType: view.external.declaredCredentialType, displayName: view.external.displayName })
      : { detailsStatus: 'EXTRACTED' as const, detailsError: null };
    await tx
      .update(libraryRecords)
      .set(details)
      .where(eq(libraryRecords.id, job.recordId));
  });
};
