import { startTracing, withTracing } from '../core/service-kit/tracing.ts';
import { createMetricsRegistry, readMetricsToken, withMetrics } from '../core/service-kit/metrics-endpoint.ts';
import { serve } from '@hono/node-server';
import cluster from 'node:cluster';
import { resolve } from 'node:path';
import { ConfigError } from '../core/errors.ts';
import { createLogger, parseLogLevel, serviceNameOf } from '../core/logging/logger.ts';
import { buildStorageApp } from './app.ts';
import { LocalStore } from './backends/local-store.ts';
import { S3Store } from './backends/s3-store.ts';
import type { ObjectStore } from './object-store.ts';
import { readStorageSettings, type StorageSettings } from './settings.ts';
import { swaggerUiFilesFromPackage } from '../core/service-kit/swagger-ui-files.ts';
import { readWorkerCount, stopOnSignals, superviseWorkers } from '../core/service-kit/worker-supervisor.ts';

export const createObjectStore = (settings: StorageSettings): ObjectStore =>
  settings.storageType === 's3' ? S3Store.connect(settings.s3) : new LocalStore(resolve(settings.localDirectory), settings.localSyncIoMaxBytes);

/** The storage service's `service.name` unless OTEL_SERVICE_NAME names it. */
const STORAGE_SERVICE_NAME = 'credential-support-storage-service';

/**
 * Node entry of the storage service: settings (refuses to start without API_KEY, unless given them
 * already read), store, serve.
 */
export const startStorageServer = (
  env: NodeJS.ProcessEnv = process.env,
  options: { hostname?: string; settings?: StorageSettings } = {},
) => {
  const settings = options.settings ?? readStorageSettings(env);
  const logger = createLogger(parseLogLevel(env.LOG_LEVEL), undefined, { base: { 'service.name': serviceNameOf(env, STORAGE_SERVICE_NAME) } });
  const app = buildStorageApp({ settings, store: createObjectStore(settings), logger, swaggerUiFiles: swaggerUiFilesFromPackage() });
  const tracing = startTracing(env, serviceNameOf(env, STORAGE_SERVICE_NAME));
  const metricsRegistry = createMetricsRegistry(serviceNameOf(env, STORAGE_SERVICE_NAME));
  const server = serve({ fetch: withTracing(withMetrics(app.fetch, metricsRegistry, readMetricsToken(env)), tracing), port: settings.port, hostname: options.hostname ?? env.HOST ?? '0.0.0.0' });
  logger.info('Storage service listening', { port: settings.port, backend: settings.storageType, url: settings.publicUrl, pid: process.pid });
  return {
    settings,
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      await tracing?.shutdown();
      logger.info('Storage service stopped', { pid: process.pid });
    },
  };
};

/**
 * Run as a program: settings are checked once, up front (a bad one stops the service before any
 * worker starts); then WORKERS processes share the port, or this process serves alone when it is 1.
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    // A cluster worker reads the settings its primary already checked and warned about.
    const settings = readStorageSettings(process.env, cluster.isWorker ? () => {} : console.warn);
    const workers = readWorkerCount(process.env);
    if (cluster.isPrimary && workers > 1) {
      superviseWorkers(workers, createLogger(parseLogLevel(process.env.LOG_LEVEL), undefined, { base: { 'service.name': serviceNameOf(process.env, STORAGE_SERVICE_NAME) } }));
    } else {
      const service = startStorageServer(process.env, { settings });
      stopOnSignals(service);
    }
  } catch (error) {
    const code = error instanceof ConfigError ? ` [${error.code}]` : '';
    console.error(`Storage service boot failed: ${error instanceof Error ? error.message : String(error)}${code}`);
    process.exit(1);
  }
}
