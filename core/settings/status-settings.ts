import { ConfigError } from '../errors.ts';
import { readText, type EnvSource } from './env-readers.ts';

export const STATUS_PURPOSES = ['revocation', 'suspension'] as const;
export type StatusPurpose = (typeof STATUS_PURPOSES)[number];

/**
 * The credential status settings of issuance. Both roles read them with this one reader, so the worker
 * and the web process agree (spec, batch issuance note 5).
 */
export interface StatusIssuanceSettings {
  /** Purposes a credential gets when its request names none; empty for `none`. */
  defaultPurposes: StatusPurpose[];
  /** Unless true, a request asking for more than one status purpose is refused. */
  multiplePurposesEnabled: boolean;
  /** How long an issuance waits for the status-list lock. */
  lockAcquireMs: number;
}

const DEFAULT_LOCK_ACQUIRE_MS = 2000;

/** CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: exactly `true` or `false` (unset or blank: false). */
const readMultiplePurposesEnabled = (env: EnvSource): boolean => {
  const raw = readText(env, 'CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED');
  if (raw === undefined) return false;
  if (raw !== 'true' && raw !== 'false') {
    throw new ConfigError(`CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED must be exactly true or false, got "${raw}"`);
  }
  return raw === 'true';
};

/**
 * CREDENTIAL_STATUS_DEFAULT_PURPOSES: comma-separated unique values from `revocation` and `suspension`,
 * or `none` alone (which warns: credentials are then issued without a status entry).
 */
const readDefaultPurposes = (env: EnvSource, multipleEnabled: boolean, warn: (message: string) => void): StatusPurpose[] => {
  const name = 'CREDENTIAL_STATUS_DEFAULT_PURPOSES';
  const raw = readText(env, name);
  if (raw === undefined) return ['revocation'];
  const values = raw.split(',').map((v) => v.trim());
  if (values.length === 1 && values[0] === 'none') {
    warn(`${name} is none: credentials are issued without a status entry unless their request asks for one`);
    return [];
  }
  const purposes: StatusPurpose[] = [];
  for (const value of values) {
    if (value === 'none') throw new ConfigError(`${name}: none must stand alone, got "${raw}"`);
    if (!(STATUS_PURPOSES as readonly string[]).includes(value)) {
      throw new ConfigError(`${name}: "${value}" is not one of ${STATUS_PURPOSES.join(', ')} (or none alone)`);
    }
    if (purposes.includes(value as StatusPurpose)) throw new ConfigError(`${name}: "${value}" is listed twice`);
    purposes.push(value as StatusPurpose);
  }
  if (purposes.length > 1 && !multipleEnabled) {
    throw new ConfigError(`${name} names more than one purpose; set CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED=true to allow it`);
  }
  return purposes;
};

/** CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: a value beginning with a positive integer uses it; anything else warns and uses 2000. */
const readLockAcquireMs = (env: EnvSource, warn: (message: string) => void): number => {
  const name = 'CREDENTIAL_STATUS_LOCK_ACQUIRE_MS';
  const raw = readText(env, name);
  if (raw === undefined) return DEFAULT_LOCK_ACQUIRE_MS;
  const leading = /^\d+/.exec(raw)?.[0];
  const value = leading === undefined ? Number.NaN : Number(leading);
  if (Number.isSafeInteger(value) && value > 0) return value;
  warn(`${name} must begin with a positive integer of milliseconds, got "${raw}"; using ${DEFAULT_LOCK_ACQUIRE_MS}`);
  return DEFAULT_LOCK_ACQUIRE_MS;
};

export const readStatusIssuanceSettings = (env: EnvSource, warn: (message: string) => void): StatusIssuanceSettings => {
  const multiplePurposesEnabled = readMultiplePurposesEnabled(env);
  return {
    defaultPurposes: readDefaultPurposes(env, multiplePurposesEnabled, warn),
    multiplePurposesEnabled,
    lockAcquireMs: readLockAcquireMs(env, warn),
  };
};
