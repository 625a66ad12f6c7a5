import { PgBoss } from 'pg-boss';
import { readLogSettings } from '../core/logging/log-settings.ts';
import { createLogger, type Logger } from '../core/logging/logger.ts';
import { readDatabaseUrl } from '../core/settings/database-url.ts';
import { createJobQueue, ensureQueues } from '../core/jobs/job-queue.ts';
import { queueDefinitions } from '../core/jobs/queues.ts';
import { connectNodeDeps } from '../core/node-deps.ts';
import { readWorkerServiceName, readWorkerSettings, type WorkerSettings } from '../core/settings/worker-settings.ts';
import { startUpDatabase } from '../core/start-up/prepare-database.ts';
import { expireBatchesConsumer } from './jobs/expire-batches.ts';
import { issueBatchConsumer } from './jobs/issue-batch.ts';
import { reconcileBatchesConsumer } from './jobs/reconcile-batches.ts';
import { registerConsumers, scheduleSweeps, type Consumer } from './consumer.ts';
import { bootFailureLines } from './boot-failure.ts';
import { assertHeartbeatWritable, isWorkerAlive, writeHeartbeat, type ConsumerActivity } from './heartbeat.ts';
import { JobsInFlight } from './jobs-in-flight.ts';
import { libraryReconcilePendingRuns } from './jobs/library-reconcile-pending-runs.ts';
import { libraryVerifyGeneration } from './jobs/library-verify-generation.ts';
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

/**
 * Every queue consumer the worker runs: one module per queue in consumers/jobs/, added here.
 * Queues whose work is not built yet have no consumer; their jobs wait in the queue.
 */
export const CONSUMERS: readonly Consumer[] = [
  issueBatchConsumer,
  reconcileBatchesConsumer,
  expireBatchesConsumer,
  libraryVerifyGeneration,
  libraryReconcilePendingRuns,
] as readonly Consumer[];

/** PostgreSQL's admin_shutdown / crash_shutdown / cannot_connect_now: the server is going away, not a fault of ours. */
const isDatabaseShutdown = (error: unknown): boolean => ['57P01', '57P02', '57P03'].includes((error as { code?: string })?.code ?? '');

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
 * keeps a heartbeat file for the container healthcheck, and runs `consumers` (tests pass their own).
 */
export const startWorker = async (
  env: NodeJS.ProcessEnv,
  logger: Logger,
  consumers: readonly Consumer[] = CONSUMERS,
  timings: WorkerTimings = WORKER_TIMINGS,
): Promise<RunningWorker> => {
  const settings: WorkerSettings = readWorkerSettings(env, (m) => logger.warn(m));
  assertHeartbeatWritable(settings.heartbeatPath);
  const databaseUrl = readDatabaseUrl(env);
  await startUpDatabase(env, databaseUrl, settings.dataEncryptionKey);
  const connection = connectNodeDeps(env, settings, { databaseUrl, logger, poolMax: 4 });
  const boss = new PgBoss({ connectionString: databaseUrl, max: 4, application_name: 'css-worker' });
  let stopping = false;
  boss.on('error', (error) => {
    // Ctrl+C of the local stack stops the database with us: a cut connection then is expected, not an error.
    if (stopping) logger.info('Queue connection closed while stopping', { error: String(error) });
    else if (isDatabaseShutdown(error)) logger.warn('Queue connection closed by the database (shutdown or restart)', { error: String(error) });
    else logger.error('Queue error', { error: String(error) });
  });
  const inFlight = new JobsInFlight();
  const stopSignal = new AbortController();
  // Read at each probe: pg-boss stamps a worker's lastFetchedOn on every poll, also an empty one
  // (its `wip` event fires only when jobs arrive, so an idle worker would look dead).
  const activity = (): ConsumerActivity | undefined => {
    const workers = boss.getWipData();
    if (workers.length === 0 && inFlight.count === 0) return undefined;
    // A worker that has not polled yet was just created: its creation stands in for its first fetch.
    return { lastFetchedOn: Math.max(0, ...workers.map((w) => w.lastFetchedOn ?? w.createdOn)) || null, jobStartedOn: inFlight.newestStart };
  };
  await boss.start();
  await ensureQueues(boss, queueDefinitions(settings), true);
  const jobs = createJobQueue(databaseUrl, logger);

  const beat = async () => {
    try {
      await boss.getQueues();
      if (isWorkerAlive(activity(), settings.jobTimeoutSeconds, Date.now(), timings.fetchWindowMs)) await writeHeartbeat(settings.heartbeatPath);
      else logger.warn('No consumer fetched or is inside a job within its time; heartbeat not written');
    } catch (error) {
      logger.warn('Queue probe failed; heartbeat not written', { error: String(error) });
    }
  };
  await registerConsumers(boss, { ...connection.deps, jobs, stopping: stopSignal.signal }, consumers, inFlight);
  await scheduleSweeps(boss, settings, consumers);
  await beat();
  const timer = setInterval(beat, timings.heartbeatEveryMs);
  logger.info('Worker started', { queues: queueDefinitions(settings).map((q) => q.name), consumers: consumers.map((c) => c.queue) });

  return {
    boss,
    stop: async () => {
      stopping = true;
      clearInterval(timer);
      // Stop fetching first; the jobs already running finish their current step (a batch job: its item in flight).
      await Promise.all(consumers.map((c) => boss.offWork(c.queue, { wait: false })));
      stopSignal.abort();
      if (!(await inFlight.whenIdle(timings.drainMs))) {
        // Not boss.stop(): it would fail the job at once. Left claimed, it expires after
        // WORKER_JOB_TIMEOUT_SECONDS and is retried after the queue's backoff.
        logger.warn('A running job did not finish within the drain time; it stays claimed until its expiry', {
          jobs: inFlight.count,
          drainMs: timings.drainMs,
        });
        return 'abandoned';
      }
      await boss.stop({ graceful: true, timeout: 1000 });
      await jobs.close();
      await connection.close();
      return 'drained';
    },
  };
};

/**
 * The worker program: reads LOG_LEVEL, LOG_REDACT_PATHS and OTEL_WORKER_SERVICE_NAME for its logger,
 * boots (a failure prints the spec's boot line and exits 1), then stops on SIGTERM or SIGINT.
 */
export const runWorkerProcess = async (
  env: NodeJS.ProcessEnv,
  consumers: readonly Consumer[] = CONSUMERS,
  timings: WorkerTimings = WORKER_TIMINGS,
): Promise<void> => {
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
