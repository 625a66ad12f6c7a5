import { startTracing } from '../core/service-kit/tracing.ts';
import { serve } from '@hono/node-server';
import { connectDatabase } from '../db/client.ts';
import { createJobQueue } from '../core/jobs/job-queue.ts';
import type { LogSettings } from '../core/logging/log-settings.ts';
import { createLogger, serviceNameOf } from '../core/logging/logger.ts';
import { createGuardedFetch } from '../core/net/guarded-fetch.ts';
import { registerSystemNamespaces } from '../core/identifier-links/system-namespaces.ts';
import { seedSystemTemplates } from '../core/render-templates/system-templates.ts';
import { ensureDefaultDidAtStartUp } from '../core/dids/default-did.ts';
import { refusedSystemServices, refusedSystemServicesWarning } from '../core/start-up/private-system-services.ts';
import { readSystemServices } from '../core/settings/system-services.ts';
import type { WebSettings } from '../core/settings/web-settings.ts';
import { readText } from '../core/settings/env-readers.ts';
import { buildApp } from './app.ts';
import { createNodeJwtVerifier } from './platform/auth/node-jwt-verifier.ts';
import { nodeFetch, type NodeBindings } from './platform/node-fetch.ts';
import { createPrometheusRecorder } from '../core/metrics/prometheus-recorder.ts';
import { installMetricsRecorder } from '../core/metrics/recorder.ts';
import { createMetricsRegistry, metricsResponse, readMetricsToken } from '../core/service-kit/metrics-endpoint.ts';
import { createServices } from './platform/services.ts';
import { staticServices } from './platform/with-platform.ts';

/** The web process's `service.name` unless OTEL_SERVICE_NAME names it. */
export const WEB_SERVICE_NAME = 'credential-support-service';

/**
 * With METRICS_BEARER_TOKEN set: the prom-client recorder installed (HTTP, issuance and verification metrics)
 * and `/metrics` served before the app. Unset: the app alone, and nothing is recorded.
 */
const withMetricsEndpoint = <R extends Response | Promise<Response>>(env: NodeJS.ProcessEnv, fetch: (request: Request, bindings: NodeBindings) => R) => {
  const token = readMetricsToken(env);
  if (!token) return fetch;
  const registry = createMetricsRegistry(serviceNameOf(env, WEB_SERVICE_NAME));
  installMetricsRecorder(createPrometheusRecorder(registry));
  return async (request: Request, bindings: NodeBindings) => (await metricsResponse(request, registry, token)) ?? fetch(request, bindings);
};

export interface WebStart {
  env: NodeJS.ProcessEnv;
  port: number;
  settings: WebSettings;
  log: LogSettings;
  databaseUrl: string;
}

/** The web process once its settings hold and its database is ready: services, the app, the port. */
export const serveWeb = ({ env, port, settings, log, databaseUrl }: WebStart) => {
  // Started first, so every span of the process (requests, adapter calls, jobs sent) is recorded.
  const tracing = startTracing(env, serviceNameOf(env, WEB_SERVICE_NAME));
  const database = connectDatabase(databaseUrl);
  const logger = createLogger(log.level, undefined, { base: { 'service.name': serviceNameOf(env, WEB_SERVICE_NAME) }, redact: log.redact });
  // Creates the queues it sends to on first use: a submission never depends on a worker having run.
  const jobs = createJobQueue(databaseUrl, logger);
  const services = createServices(env, database.db, settings, {
    createFetcher: createGuardedFetch,
    verifyJwt: createNodeJwtVerifier(),
    logger,
    jobs,
  });
  const { fetcher } = services;
  const app = buildApp(staticServices(services));
  const server = serve({ fetch: withMetricsEndpoint(env, nodeFetch(app.fetch)), port, hostname: readText(env, 'HOST') ?? '0.0.0.0' });
  services.logger.info('Web API listening', { port, url: settings.appUrl });
  const refused = refusedSystemServices(readSystemServices(env), settings.allowPrivateUrls);
  if (refused.length > 0) services.logger.warn(refusedSystemServicesWarning(refused), { setting: 'FETCH_ALLOW_PRIVATE_URLS', services: refused });
  // System render templates need the storage service, which may start after us: best-effort, in the background.
  void seedSystemTemplates({ db: database.db, box: services.secretBox, fetcher, logger: services.logger, allowPrivateUrls: settings.allowPrivateUrls })
    .then((created) => created > 0 && services.logger.info('System render templates stored', { created }))
    .catch((error) => services.logger.warn('System render templates not seeded', { error: String(error) }));
  // The system tenant's namespaces, registered with their resolvers (tenants register their own).
  void registerSystemNamespaces({ db: database.db, box: services.secretBox, fetcher, logger: services.logger })
    .then(({ registered }) => registered.length > 0 && services.logger.info('System namespaces registered', { namespaces: registered }))
    .catch((error) => services.logger.warn('System namespaces not registered', { error: String(error) }));
  // The system DEFAULT DID on the system VC service (which may start after us): warns and retries next start.
  void ensureDefaultDidAtStartUp({ db: database.db, box: services.secretBox, fetcher, logger: services.logger }, env);
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await jobs.close();
      await database.close();
      await tracing?.shutdown();
      services.logger.info('Web API stopped', { pid: process.pid });
    },
  };
};

