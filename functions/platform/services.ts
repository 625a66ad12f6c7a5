import { buildSharedDeps, type DepsOptions } from '../../core/deps.ts';
import type { JobQueue } from '../../core/jobs/job-queue.ts';
import type { EnvSource } from '../../core/settings/env-readers.ts';
import { readWebSettings, type WebSettings } from '../../core/settings/web-settings.ts';
import type { Database } from '../../db/client.ts';
import { Authenticator } from './auth/authenticator.ts';
import type { JwtVerifier } from './auth/jwt-verifier.ts';
import type { Services } from './env.ts';

/** The core deps plus what only the web needs (the authenticator): one set per process, or per isolate on edge runtimes. */
export const createSharedServices = (
  env: EnvSource,
  settings: WebSettings = readWebSettings(env),
  options: DepsOptions & { verifyJwt?: JwtVerifier } = {},
): Omit<Services, 'db'> => ({
  ...buildSharedDeps(env, settings, options),
  authenticator: new Authenticator(settings.auth, { verifyJwt: options.verifyJwt }),
});

/**
 * The services a web process hands to every request (Node passes its DNS-pinning fetcher, its
 * node:crypto token check and its job queue).
 */
export const createServices = (
  env: EnvSource,
  db: Database,
  settings: WebSettings = readWebSettings(env),
  options: DepsOptions & { jobs?: JobQueue; verifyJwt?: JwtVerifier } = {},
): Services => ({
  db,
  ...createSharedServices(env, settings, options),
  ...(options.jobs ? { jobs: options.jobs } : {}),
});
