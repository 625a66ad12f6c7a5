import { startTracing, withTracing } from '../core/service-kit/tracing.ts';
import { createMetricsRegistry, readMetricsToken, withMetrics } from '../core/service-kit/metrics-endpoint.ts';
import { serve } from '@hono/node-server';
import cluster from 'node:cluster';
import postgres from 'postgres';
import { ConfigError } from '../core/errors.ts';
import { createLogger, parseLogLevel, serviceNameOf } from '../core/logging/logger.ts';
import { createGuardedFetch } from '../core/net/guarded-fetch.ts';
import { readWorkerCount, stopOnSignals, superviseWorkers } from '../core/service-kit/worker-supervisor.ts';
import { buildVcApp } from './app.ts';
import { createCorrelatedEvents } from './correlated-events.ts';
import { migrateVcSchema } from './db/migrate.ts';
import type { DocumentFetcher } from './did-fetch.ts';
import { createDocumentFetcher } from './node-did-fetch.ts';
import { createDidResolver } from './did-resolver.ts';
import { createIdentifierStore } from './identifiers.ts';
import { createKeyVault } from './key-vault.ts';
import { readVcSettings, type VcSettings } from './settings.ts';
import { createStatusLists } from './status-lists.ts';

/** The VC service's `service.name` unless OTEL_SERVICE_NAME names it. */
export const VC_SERVICE_NAME = 'credential-support-vc-service';

/** Connections per process: enough for 10 concurrent requests with a transaction each. */
const POOL_SIZE = 10;

/**
 * Node entry of the VC service: settings (refuses to start without its required ones), its own
 * schema migrated, then served. `fetchDocument` replaces the HTTPS did:web fetch (tests).
 */
export const startVcServer = async (
  env: NodeJS.ProcessEnv = process.env,
  options: { hostname?: string; settings?: VcSettings; fetchDocument?: DocumentFetcher } = {},
) => {
  const settings = options.settings ?? readVcSettings(env);
  const logger = createLogger(parseLogLevel(env.LOG_LEVEL), undefined, { base: { 'service.name': serviceNameOf(env, VC_SERVICE_NAME) } });
  const tracing = startTracing(env, serviceNameOf(env, VC_SERVICE_NAME));
  const sql = postgres(settings.databaseUrl, { max: POOL_SIZE, onnotice: () => {} });
  await migrateVcSchema(sql);
  const identifiers = createIdentifierStore(sql, createKeyVault(settings.keyEncryptionKey, settings.previousKeyEncryptionKey), logger);
  await identifiers.listen();
  const fetchDocument = options.fetchDocument ?? createDocumentFetcher({ allowPrivate: settings.allowPrivateDidHosts });
  const resolver = createDidResolver({ identifiers, fetchDocument, cacheSeconds: settings.didCacheSeconds });
  const statusLists = createStatusLists({ sql, identifiers, publicUrl: settings.publicUrl });
  await statusLists.listen((error) => logger.warn('Status list change listener failed', { error: String(error) }));
  // Other services' status lists: the main API's guarded fetch, private hosts only where did:web may reach them.
  const fetchStatusList = createGuardedFetch({ allowPrivate: settings.allowPrivateDidHosts, userAgent: 'CredentialSupportService-VC/1.0' });
  const app = buildVcApp({ apiKey: settings.apiKey, identifiers, resolver, statusLists, fetchStatusList, events: createCorrelatedEvents(sql), logger });
  const metricsRegistry = createMetricsRegistry(serviceNameOf(env, VC_SERVICE_NAME));
  const server = serve({ fetch: withTracing(withMetrics(app.fetch, metricsRegistry, readMetricsToken(env)), tracing), port: settings.port, hostname: options.hostname ?? env.HOST ?? '0.0.0.0' });
  await new Promise<void>((done) => server.once('listening', () => done()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  logger.info('VC service listening', { port, url: settings.publicUrl, pid: process.pid });
  return {
    settings,
    port,
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      await sql.end({ timeout: 5 });
      await tracing?.shutdown();
      logger.info('VC service stopped', { pid: process.pid });
    },
  };
};

/**
 * Run as a program: settings checked once, up front; then WORKERS processes share the port (all
 * of them on one database: index allocation and key storage are safe across processes).
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const settings = readVcSettings(process.env);
    const workers = readWorkerCount(process.env);
    if (cluster.isPrimary && workers > 1) {
      // Migrate once before the workers start, so they do not queue on the migration lock.
      const sql = postgres(settings.databaseUrl, { max: 1, onnotice: () => {} });
      await migrateVcSchema(sql);
      await sql.end();
      superviseWorkers(workers, createLogger(parseLogLevel(process.env.LOG_LEVEL), undefined, { base: { 'service.name': serviceNameOf(process.env, VC_SERVICE_NAME) } }), 'VC');
    } else {
      const service = await startVcServer(process.env, { settings });
      stopOnSignals(service);
    }
  } catch (error) {
    const code = error instanceof ConfigError ? ` [${error.code}]` : '';
    console.error(`VC service boot failed: ${error instanceof Error ? error.message : String(error)}${code}`);
    process.exit(1);
  }
}
