import { startWorker } from '../consumers/worker.ts';
import { readWorkerServiceName } from '../core/settings/worker-settings.ts';
import { createLogger, parseLogLevel } from '../core/logging/logger.ts';
import { startWebServer } from '../functions/server.ts';
import { startLocalServices, stopOnSignals } from './local-stack.ts';

/**
 * `npm start`: the whole stack on embedded defaults, nothing to install beyond `npm install`.
 * The services of scripts/local-stack.ts (PostgreSQL, local IDP, storage and VC services), the web API
 * (every group in one Node process) and the worker.
 */
const services = await startLocalServices(process.env);
const web = await startWebServer(services.env, services.webPort);
const workerLogger = createLogger(parseLogLevel(process.env.LOG_LEVEL), undefined, { base: { 'service.name': readWorkerServiceName(services.env) } });
const worker = await startWorker(services.env, workerLogger);

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
