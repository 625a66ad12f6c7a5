import { claimIdempotencyKey, finaliseClaim, releaseClaim } from '../idempotency/idempotency-claims.ts';
import { bodyDigest } from '../idempotency/idempotency-key.ts';
import type { IssuanceWarning } from './conformity-warnings.ts';
import type { IssuanceDeps } from './issuance-deps.ts';
import type { IssuanceRequest } from './issuance-request.ts';
import { issueCredential } from './issue-credential.ts';

/** The 201 body of `POST /credentials`: warnings only when there are some. */
export interface IssuedAnswer {
  credentialId: string;
  warnings?: IssuanceWarning[];
}

const answerOf = (credentialId: string, warnings: IssuanceWarning[]): IssuedAnswer => (warnings.length ? { credentialId, warnings } : { credentialId });

/**
 * `POST /credentials` with an optional Idempotency-Key: without one, a plain issuance; with one, the
 * key is claimed for the tenant first (a replay answers the stored 201, in flight 409, another body
 * 422), the record is tied to the claim in its own transaction, and the answer is sealed on the claim.
 * A failed issuance frees the key for a retry.
 */
export const issueOnce = async (
  deps: IssuanceDeps,
  tenantId: string,
  request: IssuanceRequest,
  idempotency?: { key: string; body: unknown; staleAfterMinutes: number },
): Promise<IssuedAnswer> => {
  if (!idempotency) {
    const result = await issueCredential(deps, tenantId, request);
    return answerOf(result.credentialId, result.warnings);
  }
  const claim = await claimIdempotencyKey(deps.db, deps.box, {
    tenantId,
    operation: 'CREDENTIAL_ISSUE',
    key: idempotency.key,
    bodyDigest: await bodyDigest(idempotency.body),
    staleAfterMinutes: idempotency.staleAfterMinutes,
  });
  if (claim.kind === 'replay') return (claim.response as IssuedAnswer | undefined) ?? { credentialId: claim.recordId };
  let result;
  try {
    result = await issueCredential(deps, tenantId, request, { idempotencyClaimId: claim.claimId });
  } catch (error) {
    await releaseClaim(deps.db, claim.claimId).catch((cleanup) =>
      deps.logger.warn('An idempotency claim could not be released; it frees itself when stale', { correlationId: deps.correlationId, error: String(cleanup) }),
    );
    throw error;
  }
  const answer = answerOf(result.credentialId, result.warnings);
  try {
    await finaliseClaim(deps.db, deps.box, claim.claimId, result.credentialId, answer);
  } catch (error) {
    deps.logger.warn('The answer of an idempotent issuance could not be recorded; a replay answers the credential id only', { correlationId: deps.correlationId, credentialId: result.credentialId, error: String(error) });
    return answerOf(result.credentialId, [...result.warnings, { code: 'IDEMPOTENCY_RESPONSE_NOT_RECORDED', message: 'A replay of this request answers the credential id without these warnings' }]);
  }
  return answer;
};
