import { startWorker } from '../consumers/worker.ts';
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
const worker = await startWorker(services.env, createLogger(parseLogLevel(process.env.LOG_LEVEL)));

console.log(services.banner('local development', []));

stopOnSignals(services, [() => web.close(), () => worker.stop()]);
