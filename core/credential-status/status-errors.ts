import { ApiError, type ErrorStatus } from '../errors.ts';

/**
 * The refusals and faults of the status routes, with the peer's stable codes (contract §1.9). One
 * place, so the routes, their OpenAPI descriptions and the README name the same statuses.
 */
export const STATUS_ERRORS = {
  STATUS_MUTATION_DISABLED: [503, 'Status changes are disabled on this deployment (CREDENTIAL_STATUS_MUTATION_ENABLED)'],
  STATUS_PURPOSE_UNSUPPORTED: [400, 'purpose: must be revocation or suspension'],
  EXTERNAL_CREDENTIAL_STATUS_NOT_MANAGEABLE: [403, 'The status of an external credential is managed by its issuer, not here'],
  STATUS_ENTRY_NOT_FOUND: [404, 'The credential has no status entry for this purpose'],
  STATUS_IRREVERSIBLE: [409, 'value: a revocation cannot be undone'],
  VERSION_CONFLICT: [409, 'If-Version: the status entry has changed; read it again'],
  STATUS_OPERATION_IN_PROGRESS: [409, 'A status operation on this entry is in progress'],
  STATUS_RECOVERY_REQUIRED: [409, 'A status operation on this entry did not finish; reconcile the entry first'],
  STATUS_METADATA_UNAVAILABLE: [409, 'The VC service instance that holds this status list is no longer recorded'],
  STATUS_PROVIDER_CHANGED: [409, 'The VC service instance now points at another VC service than the pending operation was sent to; reconcile with acceptProviderChange: true to record what it shows'],
  STATUS_OUTCOME_MISMATCH: [409, 'The VC service acknowledged the change but its status list shows the other value; the observed value was recorded'],
  STATUS_ENTRY_UNSUPPORTED: [422, 'The status entry is not a single-bit BitstringStatusListEntry'],
  VC_REJECTED: [422, 'The VC service refused the status change'],
  VC_SERVICE_UNAVAILABLE: [502, 'The VC service is unavailable; the status list was not changed'],
  VC_STATUS_RESPONSE_INVALID: [502, 'The VC service answered with a body that is not a status answer'],
  STATUS_LIST_BUSY: [503, 'The status list is busy with another change; retry shortly'],
  STATUS_COORDINATION_UNAVAILABLE: [503, 'The status list lock could not be taken; retry shortly'],
  STATUS_OUTCOME_UNKNOWN: [503, 'The VC service did not confirm the change; the entry stays pending until it is reconciled'],
  STATUS_PERSISTENCE_FAILED: [503, 'The status list changed but the record could not be written; the entry stays pending until it is reconciled'],
  STATUS_PERSISTENCE_UNCERTAIN: [503, 'The pending operation was settled by another request meanwhile; read the status again'],
} as const satisfies Record<string, readonly [ErrorStatus, string]>;

export type StatusErrorCode = keyof typeof STATUS_ERRORS;

export const statusError = (code: StatusErrorCode, extra?: Record<string, unknown>, message?: string) => {
  const [status, fallback] = STATUS_ERRORS[code];
  return new ApiError(status, message ?? fallback, code, extra);
};
