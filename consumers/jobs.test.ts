import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../core/logging/logger.ts';
import { connectDatabase, type DatabaseHandle } from '../db/client.ts';
import { defineConsumer, type Consumer } from './consumer.ts';
import type { RunningWorker } from './worker.ts';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { runJob, startTestWorker, testWorkerDeps } from '../test/rig/jobs.ts';
import { PgBoss } from 'pg-boss';
import { createJobQueue, type JobQueue } from '../core/jobs/job-queue.ts';
import { sqlJobQueue } from '../core/jobs/sql-job-queue.ts';
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

  it('the plain-SQL enqueue (as on the edge: no pg-boss in the producer) writes the row pg-boss itself writes, and the worker runs it', async () => {
    const edgeQueue = sqlJobQueue();
    const startAfter = new Date(Date.now() + 3_600_000);
    const payload = { tenantId: 't2', batchId: 'b2' };
    const sqlId = await handle.db.transaction((tx) => edgeQueue.enqueue(tx, { queue: QUEUE_NAMES.issueBatch, payload }, { startAfter, expireInSeconds: 77 }));
    // pg-boss's own send with the same options, for comparison.
    const boss = new PgBoss({ connectionString: database.url, max: 1, supervise: false, schedule: false });
    await boss.start();
    const bossId = (await boss.send(QUEUE_NAMES.issueBatch, payload, { startAfter, expireInSeconds: 77 }))!;
    await boss.stop({ graceful: false });
    const rowOf = async (id: string) => {
      const [row] = await handle.db.execute<Record<string, unknown>>(sql`select * from pgboss.job where id = ${id}`);
      const { id: _id, created_on: _created, ...rest } = row!;
      return rest;
    };
    const [ours, theirs] = [await rowOf(sqlId), await rowOf(bossId)];
    expect(ours).toEqual(theirs);
    expect(ours).toMatchObject({ state: 'created', expire_seconds: 77, retry_limit: 4, retry_backoff: true, policy: 'standard', data: payload });
    await handle.db.execute(sql`delete from pgboss.job where id in (${sqlId}, ${bossId})`);

    const due = { tenantId: 't3', batchId: 'b3' };
    const id = await handle.db.transaction((tx) => edgeQueue.enqueue(tx, { queue: QUEUE_NAMES.issueBatch, payload: due }));
    for (let i = 0; i < 300 && !handled.some((h) => h.id === id); i++) await new Promise((r) => setTimeout(r, 100));
    expect(handled).toContainEqual({ id, payload: due });
  });

  it('the plain-SQL enqueue names a queue that is not set up', async () => {
    const other = await createTestDatabase();
    const bare = connectDatabase(other.url, { max: 1 });
    try {
      await expect(bare.db.transaction((tx) => sqlJobQueue().enqueue(tx, issueBatch))).rejects.toThrow(`Job queue ${QUEUE_NAMES.issueBatch} is not set up`);
    } finally {
      await bare.close();
      await other.drop();
    }
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
