import { setTimeout as sleep } from 'node:timers/promises';
import { defineConsumer } from '../../consumers/consumer.ts';
import { runWorkerProcess, WORKER_TIMINGS, type WorkerTimings } from '../../consumers/worker.ts';
import { QUEUE_NAMES } from '../../core/jobs/queues.ts';

/**
 * The worker program with shortened timings and one test consumer, for the shutdown and heartbeat
 * tests (they must not wait out the real 30 s drain). Argument: JSON `{ timings?, jobMs? }`; the
 * consumer takes `credentials.issue-batch` jobs and runs for `jobMs`, logging its start and end.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as { timings?: Partial<WorkerTimings>; jobMs?: number };
const sleeper = defineConsumer({
  queue: QUEUE_NAMES.issueBatch,
  handle: async (deps, job) => {
    deps.logger.info('Test job started', { jobId: job.id });
    await sleep(options.jobMs ?? 0);
    deps.logger.info('Test job finished', { jobId: job.id });
  },
});

await runWorkerProcess(process.env, [sleeper], { ...WORKER_TIMINGS, ...options.timings });
