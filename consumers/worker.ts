import type { PgBoss } from 'pg-boss';
import { readLogSettings } from '../core/logging/log-settings.ts';
import { createLogger, type Logger } from '../core/logging/logger.ts';
import { readDatabaseUrl } from '../core/settings/database-url.ts';
import { readWorkerServiceName, readWorkerSettings } from '../core/settings/worker-settings.ts';
import type { Consumer } from './consumer.ts';
import { bootFailureLines } from './boot-failure.ts';
import { assertHeartbeatWritable } from './heartbeat.ts';
import { stopWorkerOnSignals } from './worker-shutdown.ts';

/**
 * The spec's shutdown and health timings. Tests shorten them through this internal option
 * (never a setting): see test/rig/worker-program.ts.
 */
export interface WorkerTimings {
  /** How often the queue connection is probed and the heartbeat written. */
  heartbeatEveryMs: number;
  /** A consumer that polled its queue within this is alive (the heartbeat is written). */
  fetchWindowMs: number;
  /** How long a running job gets to finish after a stop signal. */
  drainMs: number;
  /** The whole shutdown must end within this, else the worker exits non-zero. */
  shutdownLimitMs: number;
}
export const WORKER_TIMINGS: WorkerTimings = { heartbeatEveryMs: 10_000, fetchWindowMs: 30_000, drainMs: 30_000, shutdownLimitMs: 45_000 };

export interface RunningWorker {
  boss: PgBoss;
  /**
   * Stops taking jobs and gives the running ones `drainMs` to finish. `drained`: everything closed.
   * `abandoned`: a job is still running; it stays claimed until its expiry, then pg-boss retries it.
   */
  stop(): Promise<'drained' | 'abandoned'>;
}

/**
 * The worker process: no port. Checks its settings, migrates, starts pg-boss, creates its queues,
 * keeps a heartbeat file for the container healthcheck, and runs `consumers` (tests pass their own;
 * by default every one of consumers/worker-consumers.ts).
 *
 * This module imports only what the settings check needs. The start-up and the queues are loaded
 * after it (loading them takes seconds under tsx), so a bad setting fails boot at once.
 */
export const startWorker = async (
  env: NodeJS.ProcessEnv,
  logger: Logger,
  consumers?: readonly Consumer[],
  timings: WorkerTimings = WORKER_TIMINGS,
): Promise<RunningWorker> => {
  const settings = readWorkerSettings(env, (m) => logger.warn(m));
  assertHeartbeatWritable(settings.heartbeatPath);
  const databaseUrl = readDatabaseUrl(env);
  const { startUpDatabase } = await import('../core/start-up/prepare-database.ts');
  await startUpDatabase(env, databaseUrl, settings.dataEncryptionKey);
  const { startQueues } = await import('./worker-queues.ts');
  return startQueues({ env, settings, databaseUrl, logger }, consumers ?? (await import('./worker-consumers.ts')).CONSUMERS, timings);
};

/**
 * The worker program: reads LOG_LEVEL, LOG_REDACT_PATHS and OTEL_WORKER_SERVICE_NAME for its logger,
 * boots (a failure prints the spec's boot line and exits 1), then stops on SIGTERM or SIGINT.
 */
export const runWorkerProcess = async (env: NodeJS.ProcessEnv, consumers?: readonly Consumer[], timings: WorkerTimings = WORKER_TIMINGS): Promise<void> => {
  let worker: RunningWorker;
  let logger: Logger;
  try {
    const log = readLogSettings(env);
    logger = createLogger(log.level, undefined, { base: { 'service.name': readWorkerServiceName(env) }, redact: log.redact });
    worker = await startWorker(env, logger, consumers, timings);
  } catch (error) {
    for (const line of bootFailureLines(error)) console.error(line);
    process.exit(1);
  }
  stopWorkerOnSignals(worker, logger, timings);
};

if (import.meta.url === `file://${process.argv[1]}`) await runWorkerProcess(process.env);
