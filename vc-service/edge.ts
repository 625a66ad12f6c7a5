import postgres from 'postgres';
import { ConfigError } from '../core/errors.ts';
import { createLogger, parseLogLevel, type Logger } from '../core/logging/logger.ts';
import { createEdgeGuardedFetch } from '../core/net/edge-guarded-fetch.ts';
import type { Fetcher } from '../core/net/fetcher.ts';
import type { EnvSource } from '../core/settings/env-readers.ts';
import { buildVcApp } from './app.ts';
import { createCorrelatedEvents } from './correlated-events.ts';
import { createFetchDocumentFetcher, type DocumentFetcher } from './did-fetch.ts';
import { createDidResolver } from './did-resolver.ts';
import { createIdentifierStore } from './identifiers.ts';
import { createKeyVault, type KeyVault } from './key-vault.ts';
import { readVcSettings, type VcSettings } from './settings.ts';
import { createStatusLists } from './status-lists.ts';

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The VC service as an edge function (wrangler env `vc`): the same app on WebCrypto (keys sealed and
 * signed there as on Node), did:web documents through the runtime's fetch. Settings, the key vault and
 * the fetcher live as long as the isolate; the database client, the stores and the app are made per
 * request (edge runtimes cannot share sockets between requests), so no cache outlives a request and no
 * change notification is needed. The schema is migrated by the Node service (`npm run start:vc`), not here.
 * A setting that is missing or wrong answers every request with a 500 naming it.
 */
let isolate:
  | { env: EnvSource; settings: VcSettings; vault: KeyVault; fetchDocument: DocumentFetcher; fetchStatusList: Fetcher; logger: Logger }
  | { env: EnvSource; error: string }
  | undefined;

/** A Hyperdrive binding `HYPERDRIVE` (a pool near the database), when bound, stands for DATABASE_URL. */
const withHyperdrive = (env: EnvSource): EnvSource => {
  const binding = (env as Record<string, unknown>).HYPERDRIVE as { connectionString?: unknown } | undefined;
  return typeof binding?.connectionString === 'string' && binding.connectionString !== '' ? { ...env, DATABASE_URL: binding.connectionString } : env;
};

const isolateFor = (env: EnvSource) => {
  if (isolate?.env === env) return isolate;
  try {
    const settings = readVcSettings(withHyperdrive(env));
    isolate = {
      env,
      settings,
      vault: createKeyVault(settings.keyEncryptionKey, settings.previousKeyEncryptionKey),
      fetchDocument: createFetchDocumentFetcher({ allowPrivate: settings.allowPrivateDidHosts }),
      // Other issuers' status lists, through the same address guard as on Node (runtime fetch at the edge).
      fetchStatusList: createEdgeGuardedFetch({ allowPrivate: settings.allowPrivateDidHosts, userAgent: 'CredentialSupportService-VC/1.0' }),
      logger: createLogger(parseLogLevel(env.LOG_LEVEL)),
    };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    isolate = { env, error: error.message };
  }
  return isolate;
};

export default {
  async fetch(request: Request, env: EnvSource, ctx: ExecutionContext): Promise<Response> {
    const current = isolateFor(env);
    if ('error' in current) return Response.json({ error: 'misconfigured', message: `The VC service is misconfigured: ${current.error}` }, { status: 500 });
    const { settings, vault, fetchDocument, fetchStatusList, logger } = current;
    // Two connections: a status-list transaction reads the issuer's key outside it (identifiers.signingKey).
    const sql = postgres(settings.databaseUrl, { max: 2, onnotice: () => {} });
    try {
      const identifiers = createIdentifierStore(sql, vault, logger);
      const resolver = createDidResolver({ identifiers, fetchDocument, cacheSeconds: 0 });
      const statusLists = createStatusLists({ sql, identifiers, publicUrl: settings.publicUrl });
      return await buildVcApp({ apiKey: settings.apiKey, identifiers, resolver, statusLists, fetchStatusList, events: createCorrelatedEvents(sql), logger }).fetch(request);
    } finally {
      ctx.waitUntil(sql.end({ timeout: 5 }));
    }
  },
};
