import type { Database } from '../db/client.ts';
import { SecretBox } from './crypto/secret-box.ts';
import { createLogger, parseLogLevel, type Logger } from './logging/logger.ts';
import { createEdgeGuardedFetch } from './net/edge-guarded-fetch.ts';
import { readUserAgent, type Fetcher, type GuardOptions } from './net/fetcher.ts';
import type { EnvSource } from './settings/env-readers.ts';

/** What every process's settings carry (web, worker and CLI settings all extend it). */
export interface DepsSettings {
  dataEncryptionKey: string;
  /** DATA_ENCRYPTION_KEY_PREVIOUS: only while a key rotation is under way. */
  previousDataEncryptionKey?: string;
  allowPrivateUrls: boolean;
}

/** The dependencies that outlive a request: one set per process, or per isolate on edge runtimes. */
export interface SharedDeps<S extends DepsSettings = DepsSettings> {
  settings: S;
  logger: Logger;
  secretBox: SecretBox;
  /** Outbound HTTP for user-supplied URLs (guarded: public addresses only unless allowed). */
  fetcher: Fetcher;
}

/** What the web process, the edge entries, the worker's consumers and the CLI commands work with. */
export interface Deps<S extends DepsSettings = DepsSettings> extends SharedDeps<S> {
  db: Database;
}

export interface DepsOptions {
  /** The guarded fetch of the runtime: Node passes `createGuardedFetch` (DNS pinning); the default suits edge runtimes. */
  createFetcher?: (options: GuardOptions) => Fetcher;
  /** A ready fetcher (tests shorten its timeout); wins over `createFetcher`. */
  fetcher?: Fetcher;
  logger?: Logger;
}

/** The one dependency builder: settings are read by the caller (each process has its own), the rest is built here. */
export const buildSharedDeps = <S extends DepsSettings>(env: EnvSource, settings: S, options: DepsOptions = {}): SharedDeps<S> => {
  const createFetcher = options.createFetcher ?? createEdgeGuardedFetch;
  return {
    settings,
    logger: options.logger ?? createLogger(parseLogLevel(env.LOG_LEVEL)),
    secretBox: new SecretBox(settings.dataEncryptionKey, settings.previousDataEncryptionKey),
    fetcher: options.fetcher ?? createFetcher({ allowPrivate: settings.allowPrivateUrls, userAgent: readUserAgent(env.RI_HTTP_USER_AGENT) }),
  };
};

export const buildDeps = <S extends DepsSettings>(env: EnvSource, settings: S, db: Database, options: DepsOptions = {}): Deps<S> => ({
  db,
  ...buildSharedDeps(env, settings, options),
});

/** The shape domain modules take (`{ db, box, fetcher, logger, allowPrivateUrls }`), from any process's deps. */
export const domainDeps = (deps: Deps) => ({
  db: deps.db,
  box: deps.secretBox,
  fetcher: deps.fetcher,
  logger: deps.logger,
  allowPrivateUrls: deps.settings.allowPrivateUrls,
});
export type DomainDeps = ReturnType<typeof domainDeps>;
