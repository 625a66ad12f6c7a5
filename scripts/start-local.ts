import { startWorker } from '../consumers/worker.ts';
import { readWorkerServiceName } from '../core/settings/worker-settings.ts';
import { createLogger, parseLogLevel, serviceNameOf } from '../core/logging/logger.ts';
import { startProcessTracing } from '../core/service-kit/process-tracing.ts';
import { inService } from '../core/tracing/trace-context.ts';
import { startWebServer } from '../functions/server.ts';
import { WEB_SERVICE_NAME } from '../functions/web-serve.ts';
import { startLocalServices, stopOnSignals } from './local-stack.ts';

/**
 * `npm start`: the whole stack on embedded defaults, nothing to install beyond `npm install`.
 * The services of scripts/local-stack.ts (PostgreSQL, local IDP, storage and VC services), the web API
 * (every group in one Node process) and the worker.
 *
 * One process, one OpenTelemetry SDK (when OTEL_EXPORTER_OTLP_ENDPOINT is set), started here before any
 * service; each service's spans carry its own `service.name`: the storage and VC services mark their
 * requests themselves, the web API's and the worker's work runs under their names from their start on.
 */
const webName = serviceNameOf(process.env, WEB_SERVICE_NAME);
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) {
  startProcessTracing(createLogger(parseLogLevel(process.env.LOG_LEVEL), undefined, { base: { 'service.name': webName } }));
}
const services = await startLocalServices(process.env);
const web = await inService(webName, () => startWebServer(services.env, services.webPort));
const workerName = readWorkerServiceName(services.env);
const workerLogger = createLogger(parseLogLevel(process.env.LOG_LEVEL), undefined, { base: { 'service.name': workerName } });
const worker = await inService(workerName, () => startWorker(services.env, workerLogger));

console.log(services.banner('local development', []));

// The worker first, and at once: Ctrl+C reaches the embedded PostgreSQL too, and a worker that knows it is
// stopping takes the connections the database cuts as expected (info), not as a failure (warn).
stopOnSignals(services, [
  () =>
    worker.stop().then(
      (outcome) => workerLogger.info('Worker stopped', { outcome }),
      (error: unknown) => workerLogger.warn('Worker shutdown failed', { error: String(error) }),
    ),
  () => web.close(),
]);
