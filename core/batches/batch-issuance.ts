import { issuePrepared, prepareIssuance } from '../credentials/issue-credential.ts';
import { issuanceDeps, type IssuingSettings } from '../credentials/issuance-deps.ts';
import { isDispatchedFault } from '../credentials/issuance-fault.ts';
import { parseIssuanceRequest } from '../credentials/issuance-request.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { ITEM_CODES, type AttemptFailure } from './item-outcome.ts';
import type { IssueItem } from './process-batch.ts';

/**
 * A batch item is issued by the code of POST /credentials, unchanged (batch note 1): the stored
 * request is parsed with this process's settings, its reads and checks start at once (nothing is written
 * and no service is called by them, though a context or schema not cached yet may be fetched: the batch
 * starts them for its next item while the current one is issued), and
 * `issue` does the rest; the item settles in the record's transaction.
 */
export const batchItemIssuer =
  (deps: Deps<IssuingSettings & Deps['settings']>): IssueItem =>
  ({ tenantId, body, correlationId }) => {
    const issuance = issuanceDeps(deps, correlationId);
    const request = (async () => parseIssuanceRequest(body, deps.settings.issuance))();
    const prepared = request.then((parsed) => prepareIssuance(issuance, tenantId, parsed));
    // Thrown where the attempt awaits it (after the item is claimed), never before.
    prepared.catch(() => {});
    return { issue: async (onRecorded) => issuePrepared(issuance, tenantId, await request, prepared, { onRecorded }) };
  };

/**
 * Sorts a failed attempt (spec "Batch item state"; decisions "Known and unknown outcomes"): a fault
 * whose outcome cannot be known (marked dispatched by issuance) is unknown; a 4xx is a definitive
 * refusal with its code; any other failure (an upstream 5xx, a refused connection before or after
 * signing, a status-list mint failure) did nothing anywhere and is a fault to retry. An upstream
 * service unavailable (502 `<SERVICE>_UNAVAILABLE`) says the batch's dependency is down.
 */
export const classifyAttemptFailure = (error: unknown): AttemptFailure => {
  const code = error instanceof ApiError ? (error.code ?? `HTTP_${error.status}`) : ITEM_CODES.unexpected;
  const message =
    error instanceof ApiError
      ? error.message
      : 'An unexpected error stopped this attempt; search the logs for the item correlation id.';
  if (isDispatchedFault(error)) return { kind: 'unknown', code, message };
  if (error instanceof ApiError && error.status < 500) return { kind: 'refused', code, message };
  const dependencyDown = error instanceof ApiError && error.status === 502 && code.endsWith('_UNAVAILABLE');
  return { kind: 'pre-dispatch', code, message, ...(dependencyDown ? { dependencyDown } : {}) };
};
