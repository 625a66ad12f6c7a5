import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../core/logging/logger.ts';
import { connectDatabase, type DatabaseHandle } from '../db/client.ts';
import { defineConsumer, type Consumer } from './consumer.ts';
import type { RunningWorker } from './worker.ts';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { runJob, startTestWorker, testWorkerDeps } from '../test/rig/jobs.ts';
import { createJobQueue, type JobQueue } from '../core/jobs/job-queue.ts';
import { parseJobPayload } from '../core/jobs/payloads.ts';
import { QUEUE_NAMES } from '../core/jobs/queues.ts';

const logger = createLogger('error');
const issueBatch = { queue: QUEUE_NAMES.issueBatch, payload: { tenantId: 't1', batchId: 'b1' } } as const;

describe('job payloads', () => {
  it('each queue parses its own shape and names the field that is wrong', () => {
    expect(parseJobPayload(QUEUE_NAMES.issueBatch, { tenantId: 't', batchId: 'b' })).toEqual({ tenantId: 't', batchId: 'b' });
    expect(parseJobPayload(QUEUE_NAMES.expireBatches, {})).toEqual({});
    expect(() => parseJobPayload(QUEUE_NAMES.issueBatch, { tenantId: 't' })).toThrow(/batchId/);
    expect(() => parseJobPayload(QUEUE_NAMES.verifyGeneration, { tenantId: 't', recordId: 'r', generation: 0 })).toThrow(/generation/);
    expect(() => parseJobPayload(QUEUE_NAMES.reconcileBatches, { extra: 1 })).toThrow(/extra/);
  });
});

describe('jobs contract over a real database', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let worker: RunningWorker;
  let jobs: JobQueue;
  const handled: { id: string; payload: unknown }[] = [];
  const jobCount = async () => {
    const rows = await handle.db.execute<{ n: number }>(sql`select count(*)::int as n from pgboss.job where name = ${QUEUE_NAMES.issueBatch}`);
    return rows[0]!.n;
  };
  /** A consumer that exists only in this test: it records what it was handed. */
  const recorder: Consumer = defineConsumer({
    queue: QUEUE_NAMES.issueBatch,
    handle: async (deps, job) => {
      expect(deps.db).toBeDefined();
      handled.push({ id: job.id, payload: job.payload });
    },
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = connectDatabase(database.url, { max: 2 });
    // The worker creates the queues; the test consumer does not run until a job is committed.
    worker = await startTestWorker(database.url, [recorder], logger);
    jobs = createJobQueue(database.url, logger);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.stop();
    await handle?.close();
    await database?.drop();
  });

  it('a rolled-back transaction leaves no job; a committed one leaves exactly one, which the worker runs', async () => {
    const before = await jobCount();
    await expect(
      handle.db.transaction(async (tx) => {
        await jobs.enqueue(tx, issueBatch);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await jobCount()).toBe(before);

    const id = await handle.db.transaction((tx) => jobs.enqueue(tx, issueBatch));
    expect(await jobCount()).toBe(before + 1);

    for (let i = 0; i < 300 && handled.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(handled).toEqual([{ id, payload: issueBatch.payload }]);
  });

  it('enqueue refuses a payload of the wrong shape before writing anything', async () => {
    const before = await jobCount();
    await expect(
      handle.db.transaction((tx) => jobs.enqueue(tx, { queue: QUEUE_NAMES.issueBatch, payload: { tenantId: 't1' } as never })),
    ).rejects.toThrow(/batchId/);
    expect(await jobCount()).toBe(before);
  });

  it('runJob runs one handler against the database without pg-boss, parsing the payload first', async () => {
    const seen: unknown[] = [];
    const probe = defineConsumer({
      queue: QUEUE_NAMES.verifyGeneration,
      handle: async (deps, job) => {
        const [row] = await deps.db.execute<{ one: number }>(sql`select 1 as one`);
        seen.push({ ...job.payload, one: row!.one });
      },
    });
    await runJob(probe, { tenantId: 't', recordId: 'r', generation: 2 }, testWorkerDeps(handle.db));
    expect(seen).toEqual([{ tenantId: 't', recordId: 'r', generation: 2, one: 1 }]);
    await expect(runJob(probe, { tenantId: 't', recordId: 'r' }, testWorkerDeps(handle.db))).rejects.toThrow(/generation/);
    expect(seen).toHaveLength(1);
  });
});
