import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Logger } from '../logging/logger.ts';
import { readInteger, type EnvSource } from '../settings/env-readers.ts';

/** `WORKERS`: processes serving the port (Node entry only), one per available CPU unless set. */
export const readWorkerCount = (env: EnvSource): number => readInteger(env, 'WORKERS', availableParallelism(), { min: 1, max: 256 });

/** A worker that dies more often than this within the window is a fault, not bad luck: stop. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** How long workers get to finish their requests on shutdown before they are killed. */
const STOP_GRACE_MS = 10_000;

/**
 * Runs `count` copies of this entry script as cluster workers sharing one listening port (the
 * primary hands connections out round robin) and keeps them running: a worker that dies after it
 * started listening is replaced; one that dies before (a port in use, say) stops the service with
 * exit code 1, as does a worker dying over and over. SIGTERM and SIGINT stop the workers gracefully.
 *
 * Every worker serves the full API: the local backend decides duplicate ids with an exclusive
 * create (atomic between processes), S3 with a conditional write.
 */
export const superviseWorkers = (count: number, logger: Logger, service = 'Storage'): void => {
  const listening = new Set<number>();
  const restarts: number[] = [];
  let stopping = false;

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.once('listening', () => listening.add(worker.id));
    return worker;
  };

  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    if (workers.length === 0) process.exit(code);
    let remaining = workers.length;
    for (const worker of workers) {
      worker.once('exit', () => {
        remaining -= 1;
        if (remaining === 0) process.exit(code);
      });
      worker.process.kill('SIGTERM');
    }
    setTimeout(() => {
      for (const worker of workers) worker.process.kill('SIGKILL');
      process.exit(code || 1);
    }, STOP_GRACE_MS).unref();
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const pid = worker.process.pid;
    if (!listening.has(worker.id)) {
      logger.error(`${service} worker failed to start; stopping`, { pid, code, signal });
      stop(1);
      return;
    }
    listening.delete(worker.id);
    const now = Date.now();
    restarts.push(now);
    while (restarts.length > 0 && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length > MAX_RESTARTS) {
      logger.error(`${service} workers keep dying; stopping`, { pid, code, signal, restarts: restarts.length });
      stop(1);
      return;
    }
    logger.warn(`${service} worker exited; starting another`, { pid, code, signal });
    fork();
  });

  for (let i = 0; i < count; i++) fork();
  logger.info(`${service} service supervising workers`, { workers: count, pid: process.pid });
  process.once('SIGTERM', () => stop(0));
  process.once('SIGINT', () => stop(0));
};

/**
 * A serving process (the only one, or one cluster worker) stops on SIGTERM; Ctrl+C stops a lone process, while a
 * cluster worker ignores it because its primary stops it (SIGTERM) rather than replace it.
 */
export const stopOnSignals = (service: { close: () => Promise<void> | void }): void => {
  const stop = async () => {
    await service.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  if (cluster.isWorker) process.on('SIGINT', () => {});
  else process.once('SIGINT', stop);
};
