import { readInteger, type EnvSource } from './env-readers.ts';

/** What the library routes read from the environment (web process). */
export interface LibrarySettings {
  /** API_MAX_BATCH_LIMIT: most ids one batch-get may name, counted before duplicates are removed. */
  maxBatchLimit: number;
}

export const readLibrarySettings = (env: EnvSource): LibrarySettings => ({
  maxBatchLimit: readInteger(env, 'API_MAX_BATCH_LIMIT', 500, { min: 1, max: 10_000 }),
});
