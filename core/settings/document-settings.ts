import { ConfigError } from '../errors.ts';
import { readEnum, readText, type EnvSource } from './env-readers.ts';

const ONE_HOUR_MS = 3_600_000;

/** How schemas and JSON-LD contexts are fetched and kept (spec "Worker settings"; read by both roles). */
export interface DocumentSettings {
  schemaCacheTtlMs: number;
  contextCacheTtlMs: number;
  /** CACHE_MAX_ENTRIES as given: the spec checks it when a cache is built (`cacheMaxEntries`). */
  cacheMaxEntries: string | undefined;
  /** UNTP_BUNDLED_ARTEFACTS: the bundled copies stand in for unreachable hosts unless `false`. */
  bundledArtefacts: boolean;
}

/** A non-negative finite number of milliseconds; anything else warns and uses one hour. */
export const readCacheTtlMs = (env: EnvSource, name: string, warn: (message: string) => void): number => {
  const raw = readText(env, name);
  if (raw === undefined) return ONE_HOUR_MS;
  const value = Number(raw);
  if (Number.isFinite(value) && value >= 0) return value;
  warn(`${name} must be a non-negative finite number of milliseconds, got "${raw}"; using ${ONE_HOUR_MS}`);
  return ONE_HOUR_MS;
};

/** CACHE_MAX_ENTRIES: a positive integer (default 1000 per cache); invalid throws when a cache is built. */
export const cacheMaxEntries = (raw: string | undefined): number => {
  if (raw === undefined || raw.trim() === '') return 1000;
  const text = raw.trim();
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError(`CACHE_MAX_ENTRIES must be a positive integer, got "${raw}"`);
  }
  return value;
};

export const readDocumentSettings = (env: EnvSource, warn: (message: string) => void): DocumentSettings => ({
  schemaCacheTtlMs: readCacheTtlMs(env, 'SCHEMA_CACHE_TTL_MS', warn),
  contextCacheTtlMs: readCacheTtlMs(env, 'CONTEXT_CACHE_TTL_MS', warn),
  cacheMaxEntries: readText(env, 'CACHE_MAX_ENTRIES'),
  bundledArtefacts: readEnum(env, 'UNTP_BUNDLED_ARTEFACTS', ['true', 'false'] as const, 'true') === 'true',
});
