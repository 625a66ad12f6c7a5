import { buildDeps } from '../../core/deps.ts';
import { createLogger, type Logger } from '../../core/logging/logger.ts';
import type { JobQueue } from '../../core/jobs/job-queue.ts';
import type { QueueName } from '../../core/jobs/queues.ts';
import { readWorkerSettings } from '../../core/settings/worker-settings.ts';
import type { Database } from '../../db/client.ts';
import { consume, type Consumer, type WorkerDeps } from '../../consumers/consumer.ts';
import { startWorker, type RunningWorker } from '../../consumers/worker.ts';
import { TEST_ENCRYPTION_KEY } from './test-settings.ts';

/** The settings a test worker runs with (over a test database's url). */
export const testWorkerEnv = (databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> => ({
  RI_APP_URL: 'http://localhost:3003',
  RI_DATABASE_URL: databaseUrl,
  DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  FETCH_ALLOW_PRIVATE_URLS: 'true',
  WORKER_HEARTBEAT_PATH: `/tmp/css-test-heartbeat-${process.pid}-${Date.now()}`,
  ...extra,
});

/** For handlers that must not enqueue: any attempt fails the test loudly. */
const noJobQueue: JobQueue = {
  enqueue: async () => {
    throw new Error('This test gave the worker deps no job queue: pass one to testWorkerDeps');
  },
  close: async () => {},
};

/**
 * The worker's deps over a test database, as a consumer receives them. A handler that enqueues
 * (continuations) needs `jobs` (`createJobQueue(database.url, logger)`); `env` overrides settings.
 */
export const testWorkerDeps = (
  db: Database,
  logger: Logger = createLogger('error'),
  jobs: JobQueue = noJobQueue,
  env: Record<string, string> = {},
): WorkerDeps => ({ ...buildDeps({}, readWorkerSettings(testWorkerEnv('postgres://unused', env), () => {}), db, { logger }), jobs });

/** Runs one job's handler against the test database, without pg-boss: the payload is parsed as the worker would. */
export const runJob = <Q extends QueueName>(consumer: Consumer<Q>, payload: unknown, deps: WorkerDeps, jobId = 'test-job'): Promise<void> =>
  consume(consumer, deps, jobId, payload);

/** The real worker loop (start-up, pg-boss, queues, heartbeat) in this process, running the given consumers. */
export const startTestWorker = (
  databaseUrl: string,
  consumers: readonly Consumer[],
  logger: Logger = createLogger('error'),
  env: Record<string, string> = {},
): Promise<RunningWorker> => startWorker(testWorkerEnv(databaseUrl, env), logger, consumers);
