import { ConfigError } from '../errors.ts';
import { readEnum, readInteger, readText, type EnvSource } from './env-readers.ts';

export const STATUS_PURPOSES = ['revocation', 'suspension'] as const;
export type StatusPurpose = (typeof STATUS_PURPOSES)[number];

/**
 * What issuance reads from the environment; the web process and the worker (batch items) must agree,
 * so both read it here (spec "Worker settings", peer §1.1, §4.5, §8).
 */
export interface IssuanceSettings {
  /** CREDENTIAL_STATUS_DEFAULT_PURPOSES: the purposes minted when a request names none; empty for `none`. */
  defaultStatusPurposes: StatusPurpose[];
  /** CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: more than one purpose per credential. */
  multipleStatusPurposes: boolean;
  /** API_MAX_TAGS_PER_RECORD and API_MAX_TAG_LENGTH: checked on input only. */
  maxTagsPerRecord: number;
  maxTagLength: number;
}

/** Comma-separated unique purposes, or `none` alone; several only when multiple purposes are enabled. */
const readDefaultPurposes = (env: EnvSource, multiple: boolean, warn: (message: string) => void): StatusPurpose[] => {
  const name = 'CREDENTIAL_STATUS_DEFAULT_PURPOSES';
  const raw = readText(env, name);
  if (raw === undefined) return ['revocation'];
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length === 1 && parts[0] === 'none') {
    warn(`${name}=none: credentials are issued without a status entry and cannot be revoked or suspended`);
    return [];
  }
  for (const part of parts) {
    if (!(STATUS_PURPOSES as readonly string[]).includes(part)) {
      throw new ConfigError(`${name} must list ${STATUS_PURPOSES.join(' and/or ')} separated by commas, or be none alone; got "${raw}"`);
    }
  }
  if (new Set(parts).size !== parts.length) throw new ConfigError(`${name} must not repeat a purpose; got "${raw}"`);
  if (parts.length > 1 && !multiple) {
    throw new ConfigError(`${name} lists more than one purpose; set CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED=true to allow it`);
  }
  return parts as StatusPurpose[];
};

export const readIssuanceSettings = (env: EnvSource, warn: (message: string) => void = console.warn): IssuanceSettings => {
  const multipleStatusPurposes = readEnum(env, 'CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED', ['true', 'false'] as const, 'false') === 'true';
  return {
    defaultStatusPurposes: readDefaultPurposes(env, multipleStatusPurposes, warn),
    multipleStatusPurposes,
    maxTagsPerRecord: readInteger(env, 'API_MAX_TAGS_PER_RECORD', 10, { min: 1, max: 1000 }),
    maxTagLength: readInteger(env, 'API_MAX_TAG_LENGTH', 64, { min: 1, max: 1000 }),
  };
};

/** IDEMPOTENCY_STALE_CLAIM_MINUTES (web only): an unfinished claim older than this may be taken over. */
export const readIdempotencyStaleClaimMinutes = (env: EnvSource) => readInteger(env, 'IDEMPOTENCY_STALE_CLAIM_MINUTES', 10, { min: 1, max: 525_600 });
