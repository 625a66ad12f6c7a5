import { issueCredential } from '../credentials/issue-credential.ts';
import { issuanceDeps, type IssuingSettings } from '../credentials/issuance-deps.ts';
import { isDispatchedFault } from '../credentials/issuance-fault.ts';
import { parseIssuanceRequest } from '../credentials/issuance-request.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { ITEM_CODES, type AttemptFailure } from './item-outcome.ts';
import type { IssueItem } from './process-batch.ts';

/**
 * A batch item is issued by the code of POST /credentials, unchanged (batch note 1): the stored
 * request is parsed with this process's settings, then issued; the item settles in the record's
 * transaction.
 */
export const batchItemIssuer =
  (deps: Deps<IssuingSettings & Deps['settings']>): IssueItem =>
  async ({ tenantId, body, correlationId, onRecorded }) => {
    const request = parseIssuanceRequest(body, deps.settings.issuance);
    return issueCredential(issuanceDeps(deps, correlationId), tenantId, request, { onRecorded });
  };

/**
 * Sorts a failed attempt (spec "Batch item state"): anything after the sign request was sent is an
 * unknown outcome; before it, a 4xx is a definitive refusal with its code, and any other failure
 * (an upstream 5xx, a status-list mint failure, a lost connection) is a pre-dispatch fault to retry.
 */
export const classifyAttemptFailure = (error: unknown): AttemptFailure => {
  const code = error instanceof ApiError ? (error.code ?? `HTTP_${error.status}`) : ITEM_CODES.unexpected;
  const message =
    error instanceof ApiError
      ? error.message
      : 'An unexpected error stopped this attempt; search the logs for the item correlation id.';
  if (isDispatchedFault(error)) return { kind: 'unknown', code, message };
  if (error instanceof ApiError && error.status < 500) return { kind: 'refused', code, message };
  return { kind: 'pre-dispatch', code, message };
};
