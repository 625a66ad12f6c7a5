import { SecretBox } from '../core/crypto/secret-box.ts';
import { createLogger, parseLogLevel } from '../core/logging/logger.ts';
import { createEdgeGuardedFetch } from '../core/net/edge-guarded-fetch.ts';
import { readUserAgent, type Fetcher } from '../core/net/fetcher.ts';
import type { EnvSource } from '../core/settings/env-readers.ts';
import { readWebSettings, type WebSettings } from '../core/settings/web-settings.ts';
import type { Database } from '../db/client.ts';
import { Authenticator } from './platform/auth/authenticator.ts';
import type { Services } from './platform/env.ts';

/** The services that outlive a request: one set per process, or per isolate on edge runtimes. */
export const createSharedServices = (
  env: EnvSource,
  settings: WebSettings = readWebSettings(env),
  fetcher?: Fetcher,
): Omit<Services, 'db'> => ({
  settings,
  logger: createLogger(parseLogLevel(env.LOG_LEVEL)),
  secretBox: new SecretBox(settings.dataEncryptionKey),
  authenticator: new Authenticator(settings.auth),
  fetcher:
    fetcher ?? createEdgeGuardedFetch({ allowPrivate: settings.allowPrivateUrls, userAgent: readUserAgent(env.RI_HTTP_USER_AGENT) }),
});

/** Builds the services a web process hands to every request (Node passes its DNS-pinning fetcher). */
export const createServices = (
  env: EnvSource,
  db: Database,
  settings: WebSettings = readWebSettings(env),
  fetcher?: Fetcher,
): Services => ({
  db,
  ...createSharedServices(env, settings, fetcher),
});
