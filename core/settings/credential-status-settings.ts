import { ConfigError } from '../errors.ts';
import { readInteger, readText, type EnvSource } from './env-readers.ts';

/** Web-only settings of issuer status operations (peer contract §1.9). */
export interface StatusOperationSettings {
  /** CREDENTIAL_STATUS_MUTATION_ENABLED: PUT …/status/{purpose} answers 503 unless exactly `true`. */
  mutationEnabled: boolean;
  /** CREDENTIAL_STATUS_OPERATION_BUDGET_MS: how long one operation may spend with the VC service; its pending deadline. */
  operationBudgetMs: number;
  /** CREDENTIAL_STATUS_RECONCILE_GRACE_MS: reconcile waits this long past a pending deadline before reading the provider. */
  reconcileGraceMs: number;
  /** CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: wait bound for the status-list lock. */
  lockAcquireMs: number;
}

export const DEFAULT_LOCK_ACQUIRE_MS = 2000;

/** Exactly `true` or `false` (unset or blank = false); anything else fails boot naming the variable. */
const readStrictBoolean = (env: EnvSource, name: string): boolean => {
  const raw = readText(env, name);
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(`${name} must be exactly true or false, got "${raw}"`);
};

/**
 * CREDENTIAL_STATUS_LOCK_ACQUIRE_MS (spec, worker settings): a value that begins with a positive integer
 * uses that integer; any other non-blank value logs a warning and uses 2000. Shared by web and worker.
 */
export const readStatusLockAcquireMs = (env: EnvSource, warn: (message: string) => void): number => {
  const raw = readText(env, 'CREDENTIAL_STATUS_LOCK_ACQUIRE_MS');
  if (raw === undefined) return DEFAULT_LOCK_ACQUIRE_MS;
  const leading = /^\d+/.exec(raw)?.[0];
  const value = leading === undefined ? Number.NaN : Number(leading);
  if (Number.isSafeInteger(value) && value > 0) return value;
  warn(`CREDENTIAL_STATUS_LOCK_ACQUIRE_MS must begin with a positive integer, got "${raw}"; using ${DEFAULT_LOCK_ACQUIRE_MS}`);
  return DEFAULT_LOCK_ACQUIRE_MS;
};

export const readStatusOperationSettings = (env: EnvSource, warn: (message: string) => void): StatusOperationSettings => ({
  mutationEnabled: readStrictBoolean(env, 'CREDENTIAL_STATUS_MUTATION_ENABLED'),
  operationBudgetMs: readInteger(env, 'CREDENTIAL_STATUS_OPERATION_BUDGET_MS', 30_000, { min: 100, max: 600_000 }),
  reconcileGraceMs: readInteger(env, 'CREDENTIAL_STATUS_RECONCILE_GRACE_MS', 5_000, { min: 0, max: 600_000 }),
  lockAcquireMs: readStatusLockAcquireMs(env, warn),
});
