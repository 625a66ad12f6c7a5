import { startTracing } from '../core/service-kit/tracing.ts';
import { PgBoss } from 'pg-boss';
import { errorFields } from '../core/logging/error-fields.ts';
import type { Logger } from '../core/logging/logger.ts';
import { createJobQueue, ensureQueues } from '../core/jobs/job-queue.ts';
import { queueDefinitions } from '../core/jobs/queues.ts';
import { connectNodeDeps } from '../core/node-deps.ts';
import type { WorkerSettings } from '../core/settings/worker-settings.ts';
import { registerConsumers, scheduleSweeps, type Consumer } from './consumer.ts';
import { isWorkerAlive, writeHeartbeat, type ConsumerActivity } from './heartbeat.ts';
import { JobsInFlight } from './jobs-in-flight.ts';
import { backlogWatch, startWorkerMetrics } from './worker-metrics.ts';
import type { RunningWorker, WorkerTimings } from './worker.ts';

/** PostgreSQL's admin_shutdown / crash_shutdown / cannot_connect_now: the server is going away, not a fault of ours. */
const isDatabaseShutdown = (error: unknown): boolean => ['57P01', '57P02', '57P03'].includes((error as { code?: string })?.code ?? '');

/** One line per pg-boss error, with its message and code (never `[object Object]`). */
export const logQueueError = (logger: Logger, stopping: boolean, error: unknown) => {
  const fields = errorFields(error);
  // Ctrl+C of the local stack stops the database with us: a cut connection then is expected, not an error.
  if (stopping) logger.info('Queue connection closed while stopping', fields);
  else if (isDatabaseShutdown(error)) logger.warn('Queue connection closed by the database (shutdown or restart)', fields);
  else logger.error('Queue error', fields);
};

/**
 * The worker's database pool: each batch job in parallel (BATCH_JOB_CONCURRENCY) holds one connection
 * for its item's transaction while the next item's reads run beside it; two more serve the sweeps.
 */
export const workerPoolSize = (settings: Pick<WorkerSettings, 'batchConcurrency'>): number => Math.max(4, 2 + 2 * settings.batchConcurrency);

/** What the worker has checked and prepared before its queues start (see startWorker in worker.ts). */
export interface CheckedWorker {
  env: NodeJS.ProcessEnv;
  settings: WorkerSettings;
  databaseUrl: string;
  logger: Logger;
}

/**
 * The worker's running part, once its settings are checked and its database is started up: starts
 * pg-boss, creates its queues, keeps a heartbeat file for the container healthcheck, and runs `consumers`.
 */
export const startQueues = async (
  { env, settings, databaseUrl, logger }: CheckedWorker,
  consumers: readonly Consumer[],
  timings: WorkerTimings,
): Promise<RunningWorker> => {
  const tracing = startTracing(env, settings.serviceName);
  const connection = connectNodeDeps(env, settings, { databaseUrl, logger, poolMax: workerPoolSize(settings) });
  const boss = new PgBoss({ connectionString: databaseUrl, max: 4, application_name: 'css-worker' });
  let stopping = false;
  boss.on('error', (error) => logQueueError(logger, stopping, error));
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

  const checkBacklog = backlogWatch(connection.deps.db, logger, env);
  const beat = async () => {
    await checkBacklog().catch((error: unknown) => logger.warn('Backlog check failed', { error: String(error) }));
    try {
      await boss.getQueues();
      if (isWorkerAlive(activity(), settings.jobTimeoutSeconds, Date.now(), timings.fetchWindowMs)) await writeHeartbeat(settings.heartbeatPath);
      else logger.warn('No consumer fetched or is inside a job within its time; heartbeat not written');
    } catch (error) {
      logger.warn('Queue probe failed; heartbeat not written', errorFields(error));
    }
  };
  await registerConsumers(boss, { ...connection.deps, jobs, stopping: stopSignal.signal }, consumers, inFlight);
  await scheduleSweeps(boss, settings, consumers);
  await beat();
  const timer = setInterval(beat, timings.heartbeatEveryMs);
  const metricsEndpoint = await startWorkerMetrics(env, connection.deps.db, logger, settings.serviceName);
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
      await metricsEndpoint?.close();
      await tracing?.shutdown();
      await jobs.close();
      await connection.close();
      return 'drained';
    },
  };
};
