import { connectDatabase } from '../db/client.ts';
import { buildDeps, type Deps, type DepsOptions, type DepsSettings } from './deps.ts';
import { createGuardedFetch } from './net/guarded-fetch.ts';
import { readDatabaseUrl } from './settings/database-url.ts';
import type { EnvSource } from './settings/env-readers.ts';

export interface NodeDeps<S extends DepsSettings> {
  deps: Deps<S>;
  close(): Promise<void>;
}

/** The Node processes' deps (web, worker, CLI): a database pool of their own and the DNS-pinning guarded fetch. */
export const connectNodeDeps = <S extends DepsSettings>(
  env: EnvSource,
  settings: S,
  options: DepsOptions & { poolMax?: number; databaseUrl?: string } = {},
): NodeDeps<S> => {
  const database = connectDatabase(options.databaseUrl ?? readDatabaseUrl(env), { max: options.poolMax });
  return {
    deps: buildDeps(env, settings, database.db, { createFetcher: createGuardedFetch, ...options }),
    close: database.close,
  };
};
