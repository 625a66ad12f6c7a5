import type { Database } from '../../db/client.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Logger } from '../logging/logger.ts';
import type { Fetcher } from '../net/fetcher.ts';
import type { StatusOperationSettings } from '../settings/credential-status-settings.ts';
import { claimOperation, releaseClaim, settleEntry } from './entry-writes.ts';
import { assertManagedPurpose, entryFor, findManagedCredential, providerEntry, providerInstance, type StatusEntryRow } from './managed-credential.ts';
import { assertNoLiveOperation } from './pending-rules.ts';
import { statusError, type StatusErrorCode } from './status-errors.ts';
import { statusProvider, type ProviderAnswer } from './status-provider.ts';

export interface StatusDeps {
  db: Database;
  box: SecretBox;
  fetcher: Fetcher;
  logger: Logger;
  settings: StatusOperationSettings;
  correlationId?: string;
}

export interface StatusChange {
  tenantId: string;
  credentialId: string;
  purpose: string;
  value: boolean;
  ifVersion: number;
}

export const changeResult = (row: StatusEntryRow) => ({
  entryId: row.id,
  statusPurpose: row.statusPurpose,
  value: row.value,
  observedAt: row.observedAt,
  version: row.version,
});

/** The refusal a failed set becomes once a read-back showed the list unchanged. */
const UNCHANGED: Record<Exclude<ProviderAnswer<never>, { ok: true }>['reason'], StatusErrorCode> = {
  rejected: 'VC_REJECTED',
  unavailable: 'VC_SERVICE_UNAVAILABLE',
  timeout: 'VC_SERVICE_UNAVAILABLE',
  invalid: 'VC_STATUS_RESPONSE_INVALID',
};

/**
 * PUT …/status/{purpose}: one status operation. Checks (mutation enabled, purpose, record, revocation
 * irreversible, nothing pending, If-Version, entry shape, provider known), then: claim pending in a
 * committed transaction (one operation per status list at a time) → set the bit within
 * CREDENTIAL_STATUS_OPERATION_BUDGET_MS → read it back → settle value and version. When neither the
 * set nor the read-back gives an answer, the entry stays pending (503 `STATUS_OUTCOME_UNKNOWN`) until
 * reconcile reads the provider.
 */
export const changeStatus = async (deps: StatusDeps, change: StatusChange) => {
  const { db, settings, logger } = deps;
  if (!settings.mutationEnabled) throw statusError('STATUS_MUTATION_DISABLED');
  const purpose = assertManagedPurpose(change.purpose);
  const { credential, entries } = await findManagedCredential(db, change.tenantId, change.credentialId);
  const entry = entryFor(entries, purpose);
  if (purpose === 'revocation' && !change.value) throw statusError('STATUS_IRREVERSIBLE');
  assertNoLiveOperation(entry, settings.reconcileGraceMs);
  if (entry.version !== change.ifVersion) throw statusError('VERSION_CONFLICT');
  const target = providerEntry(entry);
  const instance = await providerInstance(db, credential);
  const provider = await statusProvider(deps, instance);
  const context = { correlationId: deps.correlationId, credentialId: credential.id, entryId: entry.id, purpose, value: change.value, instanceId: instance.id };

  const claimed = await claimOperation(db, entry, instance.id, {
    value: change.value,
    ifVersion: change.ifVersion,
    budgetMs: settings.operationBudgetMs,
    graceMs: settings.reconcileGraceMs,
    lockAcquireMs: settings.lockAcquireMs,
    provider: provider.fingerprint,
  });
  const since = claimed.pendingSince!;
  const deadline = claimed.pendingDeadline!.getTime();

  const changed = (row: StatusEntryRow) => {
    logger.info('Credential status changed', { ...context, tenantId: change.tenantId, version: row.version });
    return changeResult(row);
  };
  const settle = async (observed: boolean) => {
    let row: StatusEntryRow | undefined;
    try {
      row = await settleEntry(db, entry.id, observed, { pendingSince: since });
    } catch (error) {
      logger.warn('Status operation reached the VC service but its record could not be written; the entry stays pending', { ...context, observed, error: String(error) });
      throw statusError('STATUS_PERSISTENCE_FAILED');
    }
    if (!row) throw statusError('STATUS_PERSISTENCE_UNCERTAIN');
    return row;
  };

  const set = await provider.set(target, entry.statusListIssuer, change.value, deadline);
  const readBack = await provider.read(target, entry.statusListIssuer, deadline);
  if (set.ok) {
    // Acknowledged: the read-back confirms it; without one, the acknowledgement stands.
    const observed = readBack.ok ? readBack.value : change.value;
    const row = await settle(observed);
    if (observed !== change.value) {
      logger.warn('VC service acknowledged a status change its list does not show', { ...context, observed });
      throw statusError('STATUS_OUTCOME_MISMATCH');
    }
    return changed(row);
  }
  if (readBack.ok) {
    const row = await settle(readBack.value);
    if (readBack.value === change.value) return changed(row);
    logger.warn('VC service did not change the status bit', { ...context, reason: set.reason, detail: set.detail });
    throw statusError(UNCHANGED[set.reason]);
  }
  if (set.reason === 'rejected') {
    // A refusal changed nothing upstream: end the claim without touching value or version.
    await releaseClaim(db, entry.id, since).catch((error: unknown) =>
      logger.warn('A refused status operation could not release its claim; reconcile the entry', { ...context, error: String(error) }),
    );
    logger.warn('VC service refused a status change', { ...context, detail: set.detail });
    throw statusError('VC_REJECTED');
  }
  logger.warn('Status operation outcome unknown; the entry stays pending until reconciled', {
    ...context,
    reason: set.reason,
    detail: set.detail,
    readBack: readBack.detail,
    deadline: new Date(deadline).toISOString(),
  });
  throw statusError(set.reason === 'invalid' ? 'VC_STATUS_RESPONSE_INVALID' : 'STATUS_OUTCOME_UNKNOWN');
};
