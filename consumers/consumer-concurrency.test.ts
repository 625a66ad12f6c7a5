import { afterAll, beforeAll, expect, it } from 'vitest';
import { createJobQueue, type JobQueue } from '../core/jobs/job-queue.ts';
import { QUEUE_NAMES } from '../core/jobs/queues.ts';
import { createLogger } from '../core/logging/logger.ts';
import { readWorkerSettings } from '../core/settings/worker-settings.ts';
import { connectDatabase, type DatabaseHandle } from '../db/client.ts';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { startTestWorker, testWorkerEnv } from '../test/rig/jobs.ts';
import { defineConsumer } from './consumer.ts';
import { issueBatchConsumer } from './jobs/issue-batch.ts';

const logger = createLogger('error');
let database: TestDatabase;
let handle: DatabaseHandle;
let jobs: JobQueue;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.url, { max: 2 });
  jobs = createJobQueue(database.url, logger);
});
afterAll(async () => {
  await jobs?.close();
  await handle?.close();
  await database?.drop();
});

it('the issue-batch consumer runs BATCH_JOB_CONCURRENCY batches at once, and the worker honours it', async () => {
  expect(issueBatchConsumer.concurrency?.(readWorkerSettings(testWorkerEnv('postgres://unused', { BATCH_JOB_CONCURRENCY: '3' }), () => {}))).toBe(3);
  expect(issueBatchConsumer.concurrency?.(readWorkerSettings(testWorkerEnv('postgres://unused'), () => {}))).toBe(1);

  // Each job waits until a second one runs beside it (or gives up after 20 s): with concurrency 2 both meet.
  let active = 0;
  let peak = 0;
  let finished = 0;
  let meet: () => void = () => {};
  const met = new Promise<void>((resolve) => (meet = resolve));
  const probe = defineConsumer({
    queue: QUEUE_NAMES.issueBatch,
    concurrency: (settings) => settings.batchConcurrency,
    handle: async () => {
      active++;
      peak = Math.max(peak, active);
      if (active === 2) meet();
      await Promise.race([met, new Promise((r) => setTimeout(r, 20_000))]);
      active--;
      finished++;
    },
  });
  const worker = await startTestWorker(database.url, [probe], logger, { BATCH_JOB_CONCURRENCY: '2' });
  try {
    await handle.db.transaction(async (tx) => {
      await jobs.enqueue(tx, { queue: QUEUE_NAMES.issueBatch, payload: { tenantId: 't', batchId: 'b1' } });
      await jobs.enqueue(tx, { queue: QUEUE_NAMES.issueBatch, payload: { tenantId: 't', batchId: 'b2' } });
    });
    for (let i = 0; i < 500 && finished < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(finished).toBe(2);
    expect(peak).toBe(2);
  } finally {
    await worker.stop();
  }
}, 90_000);
