import type { StatusEntryRow } from './managed-credential.ts';
import { statusError } from './status-errors.ts';

/** When a pending operation is surely over: its deadline plus the grace for its own settle to land. */
export const settledBy = (entry: Pick<StatusEntryRow, 'pendingDeadline'>, graceMs: number) =>
  (entry.pendingDeadline?.getTime() ?? 0) + graceMs;

/**
 * A new operation needs no pending one: still within deadline + grace it is in progress (409
 * `STATUS_OPERATION_IN_PROGRESS`); past that it was interrupted and only reconcile can tell what
 * happened (409 `STATUS_RECOVERY_REQUIRED`).
 */
export const assertNoLiveOperation = (entry: StatusEntryRow, graceMs: number) => {
  if (!entry.pendingSince) return;
  const waitMs = settledBy(entry, graceMs) - Date.now();
  if (waitMs > 0) throw statusError('STATUS_OPERATION_IN_PROGRESS', { retryAfterSeconds: Math.ceil(waitMs / 1000) });
  throw statusError('STATUS_RECOVERY_REQUIRED');
};
