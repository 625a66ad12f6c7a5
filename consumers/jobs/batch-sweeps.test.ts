import { sql } from 'drizzle-orm';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureQueues } from '../../core/jobs/job-queue.ts';
import { DEFAULT_QUEUE_SETTINGS, QUEUE_NAMES, queueDefinitions } from '../../core/jobs/queues.ts';
import type { JobQueue } from '../../core/jobs/job-queue.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { BATCHES, batchRow, issueJobs, itemRows, submit } from '../../test/rig/batch-submission.ts';
import { issueBody, SAMPLES, samplePayload, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';
import { startBatchWorkerRig } from '../../test/rig/batch-worker-rig.ts';
import { runJob, startTestWorker, testWorkerDeps } from '../../test/rig/jobs.ts';
import type { WorkerDeps } from '../consumer.ts';
import { expireBatchesConsumer } from './expire-batches.ts';
import { issueBatchConsumer } from './issue-batch.ts';
import { reconcileBatchesConsumer } from './reconcile-batches.ts';

let rig: IssuanceRig;
let jobs: JobQueue;
let tenantId: string;
let close: (() => Promise<void>) | undefined;
const logger = createLogger('error');

beforeAll(async () => {
  ({ rig, jobs, tenantId, close } = await startBatchWorkerRig(logger));
});
afterAll(() => close?.());

const deps = (): WorkerDeps => testWorkerDeps(rig.t.db, logger, jobs);
const good = () => issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did));
const submitItems = async (n: number) => {
  const res = await submit(rig.t, rig.token, { items: Array.from({ length: n }, good) });
  expect(res.status, res.text).toBe(202);
  return res.body.batchId as string;
};
const status = (batchId: string) => rig.t.call('GET', `${BATCHES}/${batchId}`, { token: rig.token });
const jobStates = async (batchId: string) => [...(await issueJobs(rig.t.db, batchId))].map((j) => j.state).sort();
/** The batch's job was lost (a crashed worker, retries exhausted): nothing waits, retries or runs for it. */
const loseJobs = (batchId: string) => rig.t.db.execute(sql`update pgboss.job set state = 'failed' where data->>'batchId' = ${batchId}`);
/** No progress for longer than twice WORKER_JOB_TIMEOUT_SECONDS (300 s by default). */
const stall = (batchId: string, seconds = 601) =>
  rig.t.db.execute(sql`update credential_batches set last_progress_at = now() - make_interval(secs => ${seconds}) where id = ${batchId}`);
const reconcile = () => runJob(reconcileBatchesConsumer, {}, deps());
const expire = () => runJob(expireBatchesConsumer, {}, deps());

describe('reconciliation sweep', () => {
  it('an ordinary stale batch with no job gets one continuation; a second sweep adds none', async () => {
    const batchId = await submitItems(1);
    await loseJobs(batchId);
    await stall(batchId);
    await reconcile();
    expect(await jobStates(batchId)).toEqual(['created', 'failed']);
    await reconcile();
    expect(await jobStates(batchId)).toEqual(['created', 'failed']);
    // The continuation carries the batch on.
    await runJob(issueBatchConsumer, { tenantId, batchId }, deps());
    expect((await status(batchId)).body.state).toBe('COMPLETED');
  });

  it('leaves batches alone that progressed recently or still have a waiting, retrying or running job (within its expiry)', async () => {
    const recent = await submitItems(1);
    await loseJobs(recent);
    await stall(recent, 599);
    const waiting = await submitItems(1);
    await stall(waiting);
    const retrying = await submitItems(1);
    await rig.t.db.execute(sql`update pgboss.job set state = 'retry' where data->>'batchId' = ${retrying}`);
    await stall(retrying);
    const overdue = await submitItems(1);
    await rig.t.db.execute(
      sql`update pgboss.job set state = 'active', started_on = now() - interval '10 minutes', expire_seconds = 300 where data->>'batchId' = ${overdue}`,
    );
    await stall(overdue);
    await reconcile();
    expect(await jobStates(recent)).toEqual(['failed']);
    // An active job past its expiry belongs to a worker that died holding it: the batch gets a continuation.
    expect(await jobStates(overdue)).toEqual(['active', 'created']);
    expect(await jobStates(waiting)).toEqual(['created']);
    expect(await jobStates(retrying)).toEqual(['retry']);
  });

  it('a stale batch whose cancellation was requested: abandoned processing becomes OUTCOME_UNKNOWN and the batch settles without issuance', async () => {
    const batchId = await submitItems(2);
    const [first] = await itemRows(rig.t.db, batchId);
    await rig.t.db.execute(sql`update credential_batch_items set state = 'PROCESSING', attempt_token = 'gone' where id = ${first!.id}`);
    await rig.t.db.execute(sql`update credential_batches set state = 'RUNNING', queued_count = 1, processing_count = 1 where id = ${batchId}`);
    expect((await rig.t.call('POST', `${BATCHES}/${batchId}/cancel`, { token: rig.token })).status).toBe(202);
    await loseJobs(batchId);
    await stall(batchId);
    await reconcile();
    const view = (await status(batchId)).body;
    expect(view.state).toBe('NEEDS_ATTENTION');
    expect(view.items.map((i: { state: string }) => i.state)).toEqual(['OUTCOME_UNKNOWN', 'CANCELLED']);
    expect(view.items[0].error.code).toBe('ATTEMPT_ABANDONED');
    expect(await jobStates(batchId)).toEqual(['failed']);

    const plain = await submitItems(1);
    await rig.t.call('POST', `${BATCHES}/${plain}/cancel`, { token: rig.token });
    await loseJobs(plain);
    await stall(plain);
    await reconcile();
    expect((await status(plain)).body).toMatchObject({ state: 'CANCELLED', settledAt: expect.any(String) });
    expect(await jobStates(plain)).toEqual(['failed']);
  });
});

describe('expiry sweep', () => {
  it('a settled batch past retention loses its items and answers 410 with the tombstone; its credentials stay', async () => {
    const batchId = await submitItems(1);
    await runJob(issueBatchConsumer, { tenantId, batchId }, deps());
    const issued = (await status(batchId)).body;
    expect(issued.state).toBe('COMPLETED');
    const credentialId = issued.items[0].credentialId as string;
    await rig.t.db.execute(sql`update credential_batches set expires_at = now() - interval '1 second' where id = ${batchId}`);
    await expire();
    const gone = await status(batchId);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ code: 'BATCH_EXPIRED', state: 'EXPIRED', counts: { total: 1, issued: 1 }, items: [] });
    expect(await itemRows(rig.t.db, batchId)).toEqual([]);
    expect((await rig.t.call('GET', `/api/v1/credentials/${credentialId}`, { token: rig.token })).status).toBe(200);
  });

  it('never expires a batch needing attention (no deadline while unknown) nor one not yet due', async () => {
    const attention = await submitItems(1);
    await rig.t.db.execute(sql`update credential_batch_items set state = 'OUTCOME_UNKNOWN' where batch_id = ${attention}`);
    await rig.t.db.execute(
      sql`update credential_batches set state = 'NEEDS_ATTENTION', queued_count = 0, unknown_count = 1, settled_at = now() - interval '400 days' where id = ${attention}`,
    );
    const notDue = await submitItems(1);
    await runJob(issueBatchConsumer, { tenantId, batchId: notDue }, deps());
    const before = [await batchRow(rig.t.db, attention), await batchRow(rig.t.db, notDue)];
    await expire();
    expect([await batchRow(rig.t.db, attention), await batchRow(rig.t.db, notDue)]).toEqual(before);
    expect(await itemRows(rig.t.db, attention)).toHaveLength(1);
  });
});

describe('schedules', () => {
  it(
    'a sweep left active by a killed worker blocks the next sweeps only for the sweep expiry, not WORKER_JOB_TIMEOUT_SECONDS (the sweep that did not run for minutes)',
    async () => {
      // The worker's queues with the default job timeout (300 s); pg-boss's supervisor and monitor look every second here.
      const boss = new PgBoss({ connectionString: rig.t.databaseUrl, max: 2, superviseIntervalSeconds: 1, monitorIntervalSeconds: 1, schedule: false });
      boss.on('error', () => {});
      await boss.start();
      try {
        await ensureQueues(boss, queueDefinitions(DEFAULT_QUEUE_SETTINGS), true);
        const queue = QUEUE_NAMES.reconcileBatches;
        await rig.t.db.execute(sql`delete from pgboss.job where name = ${queue}`);
        const abandoned = await boss.send(queue, {});
        expect((await boss.fetch(queue)).map((j) => j.id)).toEqual([abandoned]);
        // The worker holding it is killed: it never completes. The next sweeps (the singleton policy) wait behind it.
        const next = await boss.send(queue, {});
        expect(await boss.fetch(queue)).toEqual([]);
        // Bounded well below the 300 s job timeout: before the fix the sweep stayed blocked for it.
        const end = Date.now() + 90_000;
        let fetched: string[] = [];
        while (fetched.length === 0 && Date.now() < end) {
          await new Promise((r) => setTimeout(r, 250));
          fetched = (await boss.fetch(queue)).map((j) => j.id);
        }
        expect(fetched).toEqual([next]);
        expect((await boss.getJobById(queue, abandoned!))?.state).toBe('failed');
      } finally {
        await boss.stop({ graceful: false });
      }
    },
    120_000,
  );

  it('the worker sends the reconciliation sweep on LIBRARY_RECONCILE_PENDING_RUNS_CRON and the expiry sweep every BATCH_EXPIRY_SWEEP_MINUTES', async () => {
    const worker = await startTestWorker(rig.t.databaseUrl, [reconcileBatchesConsumer, expireBatchesConsumer], logger, {
      LIBRARY_RECONCILE_PENDING_RUNS_CRON: '*/5 * * * *',
      BATCH_EXPIRY_SWEEP_MINUTES: '120',
    });
    try {
      const rows = await rig.t.db.execute<{ name: string; cron: string; timezone: string }>(sql`select name, cron, timezone from pgboss.schedule order by name`);
      expect([...rows]).toEqual([
        { name: 'credentials.expire-batches', cron: '0 */2 * * *', timezone: 'UTC' },
        { name: 'credentials.reconcile-batches', cron: '*/5 * * * *', timezone: 'UTC' },
      ]);
    } finally {
      await worker.stop();
    }
  });
});
