import { settleEntry } from './entry-writes.ts';
import type { StatusDeps } from './change-status.ts';
import { assertManagedPurpose, entryFor, findManagedCredential, providerEntry, providerInstance } from './managed-credential.ts';
import { settledBy } from './pending-rules.ts';
import { statusError } from './status-errors.ts';
import { readFailureCode, statusProvider } from './status-provider.ts';
import { entryView } from './status-view.ts';

export interface StatusReconcile {
  tenantId: string;
  credentialId: string;
  purpose: string;
  ifVersion: number;
  /** Read from the instance's current VC service even though the pending operation went to another. */
  acceptProviderChange?: boolean;
}

/**
 * POST …/status/{purpose}/reconcile: reads the provider's bit (never sets it) and records it as the
 * entry's value, ending any pending operation. A pending operation is left alone until its deadline
 * plus CREDENTIAL_STATUS_RECONCILE_GRACE_MS, so a live operation settles itself (409
 * `STATUS_OPERATION_IN_PROGRESS` with `retryAfterSeconds` meanwhile). When the instance now points at
 * another VC service than the one the operation was sent to, its answer says nothing about that
 * operation: 409 `STATUS_PROVIDER_CHANGED` unless the caller accepts the change. Works while mutation
 * is disabled: recovery must stay possible.
 */
export const reconcileStatus = async (deps: StatusDeps, request: StatusReconcile) => {
  const { db, settings, logger } = deps;
  const purpose = assertManagedPurpose(request.purpose);
  const { credential, entries } = await findManagedCredential(db, request.tenantId, request.credentialId);
  const entry = entryFor(entries, purpose);
  if (entry.version !== request.ifVersion) throw statusError('VERSION_CONFLICT');
  if (entry.pendingSince) {
    const waitMs = settledBy(entry, settings.reconcileGraceMs) - Date.now();
    if (waitMs > 0) throw statusError('STATUS_OPERATION_IN_PROGRESS', { retryAfterSeconds: Math.ceil(waitMs / 1000) });
  }
  const target = providerEntry(entry);
  const instance = await providerInstance(db, credential);
  const provider = await statusProvider(deps, instance);
  if (entry.pendingSince && entry.pendingProvider && entry.pendingProvider !== provider.fingerprint && !request.acceptProviderChange) {
    throw statusError('STATUS_PROVIDER_CHANGED');
  }
  const read = await provider.read(target, entry.statusListIssuer, Date.now() + settings.operationBudgetMs);
  if (!read.ok) {
    logger.warn('Status reconcile could not read the provider', { correlationId: deps.correlationId, entryId: entry.id, reason: read.reason, detail: read.detail });
    throw statusError(readFailureCode(read.reason));
  }
  const row = await settleEntry(db, entry.id, read.value, { version: request.ifVersion, pendingSince: entry.pendingSince });
  // Another reconcile settled it, or an operation claimed it meanwhile (its own settle records the outcome).
  if (!row) throw statusError('VERSION_CONFLICT');
  if (entry.pendingSince || entry.value !== read.value) {
    logger.warn('Status entry reconciled against the provider', {
      correlationId: deps.correlationId,
      entryId: entry.id,
      recorded: entry.value,
      pendingValue: entry.pendingValue,
      providerChanged: entry.pendingProvider !== null && entry.pendingProvider !== provider.fingerprint,
      observed: read.value,
    });
  }
  return entryView(row);
};
