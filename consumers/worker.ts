import { PgBoss, type WipData } from 'pg-boss';
import { ConfigError } from '../core/errors.ts';
import { createLogger, parseLogLevel, type Logger } from '../core/logging/logger.ts';
import { readDatabaseUrl } from '../core/settings/database-url.ts';
import { createJobQueue, ensureQueues } from '../core/jobs/job-queue.ts';
import { queueDefinitions } from '../core/jobs/queues.ts';
import { connectNodeDeps } from '../core/node-deps.ts';
import { readWorkerSettings, type WorkerSettings } from '../core/settings/worker-settings.ts';
import { startUpDatabase } from '../core/start-up/prepare-database.ts';
import { registerConsumers, scheduleSweeps, type Consumer } from './consumer.ts';
import { libraryReconcilePendingRuns } from './jobs/library-reconcile-pending-runs.ts';
import { libraryVerifyGeneration } from './jobs/library-verify-generation.ts';
import { isWorkerAlive, writeHeartbeat, type ConsumerActivity } from './heartbeat.ts';

const HEARTBEAT_EVERY_MS = 10_000;
const DRAIN_MS = 30_000;
const SHUTDOWN_LIMIT_MS = 45_000;

/**
 * Every queue consumer the worker runs: one module per queue in consumers/jobs/, added here.
 * Queues whose work is not built yet have no consumer; their jobs wait in the queue.
 */
export const CONSUMERS: readonly Consumer[] = [libraryVerifyGeneration, libraryReconcilePendingRuns] as readonly Consumer[];

/** PostgreSQL's admin_shutdown / crash_shutdown / cannot_connect_now: the server is going away, not a fault of ours. */
const isDatabaseShutdown = (error: unknown): boolean => ['57P01', '57P02', '57P03'].includes((error as { code?: string })?.code ?? '');

export interface RunningWorker {
  boss: PgBoss;
  stop(): Promise<void>;
}

/**
 * The worker process: no port. Checks its settings, migrates, starts pg-boss, creates its queues,
 * keeps a heartbeat file for the container healthcheck, and runs `consumers` (tests pass their own).
 */
export const startWorker = async (
  env: NodeJS.ProcessEnv,
  logger: Logger,
  consumers: readonly Consumer[] = CONSUMERS,
): Promise<RunningWorker> => {
  const settings: WorkerSettings = readWorkerSettings(env, (m) => logger.warn(m));
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
  let activity: ConsumerActivity | undefined;
  boss.on('wip', (workers: WipData[]) => {
    if (workers.length === 0) return;
    const newest = (values: (number | null)[]) => Math.max(0, ...values.map((v) => v ?? 0)) || null;
    activity = {
      lastFetchedOn: newest(workers.map((w) => w.lastFetchedOn)),
      jobStartedOn: newest(
        workers.map((w) => (w.lastJobStartedOn && (w.lastJobEndedOn ?? 0) < w.lastJobStartedOn ? w.lastJobStartedOn : null)),
      ),
    };
  });
  await boss.start();
  await ensureQueues(boss, queueDefinitions(settings), true);
  const jobs = createJobQueue(databaseUrl, logger);

  const beat = async () => {
    try {
      await boss.getQueues();
      if (isWorkerAlive(activity, settings.jobTimeoutSeconds)) await writeHeartbeat(settings.heartbeatPath);
    } catch (error) {
      logger.warn('Queue probe failed; heartbeat not written', { error: String(error) });
    }
  };
  await registerConsumers(boss, { ...connection.deps, jobs }, consumers);
  await scheduleSweeps(boss, settings, consumers);
  await beat();
  const timer = setInterval(beat, HEARTBEAT_EVERY_MS);
  logger.info('Worker started', { queues: queueDefinitions(settings).map((q) => q.name), consumers: consumers.map((c) => c.queue) });

  return {
    boss,
    stop: async () => {
      stopping = true;
      clearInterval(timer);
      await boss.stop({ graceful: true, timeout: DRAIN_MS });
      await jobs.close();
      await connection.close();
    },
  };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const logger = createLogger(parseLogLevel(process.env.LOG_LEVEL));
  let worker: RunningWorker;
  try {
    worker = await startWorker(process.env, logger);
  } catch (error) {
    const code = error instanceof ConfigError ? error.code : 'BOOT_FAILED';
    console.error(`Worker boot failed: ${error instanceof Error ? error.message : String(error)} [${code}]`);
    for (let cause = (error as Error)?.cause; cause; cause = (cause as Error).cause) console.error(`  caused by: ${String(cause)}`);
    process.exit(1);
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1); // a second signal exits at once
    stopping = true;
    logger.info('Worker stopping', { signal });
    const limit = setTimeout(() => {
      logger.error('Worker shutdown exceeded 45 s');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    limit.unref();
    try {
      await worker.stop();
      process.exit(0);
    } catch (error) {
      logger.error('Worker shutdown failed', { error: String(error) });
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
