import type { Logger } from '../core/logging/logger.ts';
import { errorFields } from '../core/logging/error-fields.ts';
import type { RunningWorker, WorkerTimings } from './worker.ts';

/**
 * SIGTERM or SIGINT: stop taking jobs, give the running job `drainMs`, and exit 0 once done. The whole
 * shutdown must end within `shutdownLimitMs`, else exit 1. A second signal exits 1 at once.
 */
export const stopWorkerOnSignals = (worker: RunningWorker, logger: Logger, timings: WorkerTimings): void => {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn('Second stop signal: exiting at once', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('Worker stopping', { signal, drainMs: timings.drainMs });
    setTimeout(() => {
      logger.error('Worker shutdown exceeded its time limit', { limitMs: timings.shutdownLimitMs });
      process.exit(1);
    }, timings.shutdownLimitMs).unref();
    try {
      const outcome = await worker.stop();
      logger.info('Worker stopped', { outcome });
      process.exit(0);
    } catch (error) {
      logger.error('Worker shutdown failed', errorFields(error));
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
};
