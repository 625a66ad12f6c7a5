import type { StatusDeps } from './change-status.ts';
import { findManagedCredential, providerEntry, providerInstance, type CredentialRow, type StatusEntryRow } from './managed-credential.ts';
import { ApiError } from '../errors.ts';
import { statusError } from './status-errors.ts';
import { readFailureCode, statusProvider, type StatusProvider } from './status-provider.ts';

export const entryView = (row: StatusEntryRow) => ({
  entryId: row.id,
  statusPurpose: row.statusPurpose,
  value: row.value,
  observedAt: row.observedAt,
  valueChangedAt: row.valueChangedAt,
  version: row.version,
  pending: row.pendingSince ? { value: row.pendingValue, since: row.pendingSince, deadline: row.pendingDeadline } : null,
});

const CAPTURE_FAILED = 'The status entries could not be read from the signed credential at issuance';

const recordView = (credential: CredentialRow, entries: StatusEntryRow[]) => ({
  capture: credential.statusCapture,
  statusCaptureError: credential.statusCapture === 'FAILED' ? CAPTURE_FAILED : null,
  attribution: credential.vcServiceInstanceId ? { instanceId: credential.vcServiceInstanceId, source: 'ISSUANCE', at: credential.createdAt } : null,
  entries: entries.map(entryView),
});

interface FreshRead {
  observed: { entryId: string; statusPurpose: string; value: boolean; observedAt: Date }[];
  failures: { entryId: string; statusPurpose: string; code: string; message: string }[];
}

/** Each entry's bit as the provider shows it now; nothing is written (GET stays safe). */
const readProvider = async (deps: StatusDeps, credential: CredentialRow, entries: StatusEntryRow[]): Promise<FreshRead> => {
  const fresh: FreshRead = { observed: [], failures: [] };
  const fail = (entry: StatusEntryRow, error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    fresh.failures.push({ entryId: entry.id, statusPurpose: entry.statusPurpose, code: error.code ?? 'UNEXPECTED', message: error.message });
  };
  let provider: StatusProvider;
  try {
    provider = await statusProvider(deps, await providerInstance(deps.db, credential));
  } catch (error) {
    for (const entry of entries) fail(entry, error);
    return fresh;
  }
  const deadline = Date.now() + deps.settings.operationBudgetMs;
  await Promise.all(
    entries.map(async (entry) => {
      try {
        const read = await provider.read(providerEntry(entry), entry.statusListIssuer, deadline);
        if (read.ok) fresh.observed.push({ entryId: entry.id, statusPurpose: entry.statusPurpose, value: read.value, observedAt: new Date() });
        else fail(entry, statusError(readFailureCode(read.reason)));
      } catch (error) {
        fail(entry, error);
      }
    }),
  );
  return fresh;
};

/** GET …/status[?fresh=true]: the recorded status; `fresh` adds the provider's view (`observed`, `failures`). */
export type StatusView = ReturnType<typeof recordView> & Partial<FreshRead>;

export const readStatus = async (deps: StatusDeps, request: { tenantId: string; credentialId: string; fresh: boolean }): Promise<StatusView> => {
  const { credential, entries } = await findManagedCredential(deps.db, request.tenantId, request.credentialId);
  const view = recordView(credential, entries);
  if (!request.fresh) return view;
  return { ...view, ...(await readProvider(deps, credential, entries)) };
};
