import { sql } from 'drizzle-orm';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { createGuardedFetch } from '../../core/net/guarded-fetch.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchItemIssuer, classifyAttemptFailure } from '../../core/batches/batch-issuance.ts';
import { retryDelaySeconds } from '../../core/batches/item-outcome.ts';
import { processBatch, type BatchWorkDeps } from '../../core/batches/process-batch.ts';
import type { JobQueue } from '../../core/jobs/job-queue.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { credentials } from '../../db/schema/index.ts';
import { BATCHES, batchRow, issueJobs, itemRows, submit } from '../../test/rig/batch-submission.ts';
import { issueBody, pointStorageInstance, SAMPLES, samplePayload, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';
import { pointVcInstance, unreachableVc } from '../../test/rig/did-fixtures.ts';
import { startBatchWorkerRig } from '../../test/rig/batch-worker-rig.ts';
import { runJob, startTestWorker, testWorkerDeps } from '../../test/rig/jobs.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import type { WorkerDeps } from '../consumer.ts';
import { issueBatchConsumer } from './issue-batch.ts';

let rig: IssuanceRig;
let jobs: JobQueue;
let tenantId: string;
let close: (() => Promise<void>) | undefined;
const logger = createLogger('error');

beforeAll(async () => {
  ({ rig, jobs, tenantId, close } = await startBatchWorkerRig(logger));
});
afterAll(() => close?.());

const good = (reference?: string) =>
  issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did), reference ? { reference } : {});
/** Refused by issuance (a definitive 400): the issuer is no DID of the tenant. */
const unregisteredIssuer = () => issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, 'did:web:nobody.example'));

const submitItems = async (items: unknown[]) => {
  const res = await submit(rig.t, rig.token, { items });
  expect(res.status, res.text).toBe(202);
  return res.body.batchId as string;
};
const deps = (env: Record<string, string> = {}): WorkerDeps => testWorkerDeps(rig.t.db, logger, jobs, env);
const run = (batchId: string, env: Record<string, string> = {}) => runJob(issueBatchConsumer, { tenantId, batchId }, deps(env));
const status = async (batchId: string) => (await rig.t.call('GET', `${BATCHES}/${batchId}`, { token: rig.token })).body;
const credentialCount = async () => (await rig.t.db.select({ n: sql<number>`count(*)::int` }).from(credentials))[0]!.n;
const createdJobs = async (batchId: string) => [...(await issueJobs(rig.t.db, batchId))].filter((j) => j.state === 'created');

/** The worker's batch deps with the real issuer, wrapped so a test can act during an attempt (after its claim). */
const workDeps = (w: WorkerDeps, around?: () => Promise<void>): BatchWorkDeps => {
  const issue = batchItemIssuer(w);
  return {
    db: w.db,
    box: w.secretBox,
    logger: w.logger,
    jobs,
    classify: classifyAttemptFailure,
    issueItem: (input) => {
      const prepared = issue(input);
      return {
        issue: async (onRecorded) => {
          await around?.();
          return prepared.issue(onRecorded);
        },
      };
    },
    policy: {
      retryLimit: w.settings.batchRetryLimit,
      backoffSeconds: w.settings.batchRetryBackoffSeconds,
      backoffMaxSeconds: w.settings.batchRetryBackoffMaxSeconds,
      jobTimeoutSeconds: w.settings.jobTimeoutSeconds,
      retentionDays: w.settings.retentionDays,
    },
  };
};

/** The system VC service unreachable: status-list minting (before signing) fails. */
const withVcDown = async <T>(work: () => Promise<T>): Promise<T> => {
  await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, await unreachableVc());
  try {
    return await work();
  } finally {
    await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, rig.vc);
  }
};

/** The storage service unreachable: the credential is signed, then cannot be stored (after dispatch). */
const withStorageDown = async <T>(work: () => Promise<T>): Promise<T> => {
  await pointStorageInstance(rig.t, SYSTEM_SERVICE_IDS.STORAGE, `http://127.0.0.1:${await freePort()}`);
  try {
    return await work();
  } finally {
    await pointStorageInstance(rig.t, SYSTEM_SERVICE_IDS.STORAGE, rig.storage.url);
  }
};

const makeDue = (batchId: string) => rig.t.db.execute(sql`update credential_batch_items set next_attempt_at = now() where batch_id = ${batchId} and state = 'QUEUED'`);

describe('issuing a batch', () => {
  it('issues every item in index order with the code of POST /credentials and settles COMPLETED with a retention deadline', async () => {
    const batchId = await submitItems([good('first'), good('second')]);
    const before = await credentialCount();
    await run(batchId);
    const view = await status(batchId);
    expect(view).toMatchObject({ state: 'COMPLETED', counts: { total: 2, issued: 2, queued: 0, processing: 0, failed: 0, unknown: 0, cancelled: 0 } });
    expect(view.items.map((i: { index: number; reference: string; state: string }) => [i.index, i.reference, i.state])).toEqual([
      [0, 'first', 'ISSUED'],
      [1, 'second', 'ISSUED'],
    ]);
    expect(await credentialCount()).toBe(before + 2);
    for (const i of view.items) {
      const record = await rig.t.call('GET', `/api/v1/credentials/${i.credentialId}`, { token: rig.token });
      expect(record.status).toBe(200);
      expect(record.body.issuerDid).toBe(rig.did);
    }
    const row = await batchRow(rig.t.db, batchId);
    expect(row!.expiresAt!.getTime() - row!.settledAt!.getTime()).toBe(30 * 86_400_000);
    // Claim (QUEUED→RUNNING), two moves per item (PROCESSING, ISSUED), settlement: each its own version.
    expect(row!.version).toBe(1 + 1 + 2 * 2 + 1);
    expect(row!.claimToken).toBeNull();
    const [first, second] = await itemRows(rig.t.db, batchId);
    expect(first!.updatedAt.getTime()).toBeLessThanOrEqual(second!.updatedAt.getTime());
    expect([first!.attemptCount, second!.attemptCount]).toEqual([1, 1]);
  });

  it('the next item is prepared while one is issued but never claimed before its turn: one item PROCESSING at a time, in index order', async () => {
    const batchId = await submitItems([good('a'), good('b'), good('c')]);
    const seen: string[][] = [];
    const look = async () => {
      seen.push((await itemRows(rig.t.db, batchId)).map((r) => `${r.state}:${r.attemptCount}`));
    };
    await processBatch(workDeps(deps(), look), tenantId, batchId);
    expect(seen).toEqual([
      ['PROCESSING:1', 'QUEUED:0', 'QUEUED:0'],
      ['ISSUED:1', 'PROCESSING:1', 'QUEUED:0'],
      ['ISSUED:1', 'ISSUED:1', 'PROCESSING:1'],
    ]);
    const view = await status(batchId);
    expect(view).toMatchObject({ state: 'COMPLETED', counts: { issued: 3 } });
    expect(new Set(view.items.map((i: { credentialId: string }) => i.credentialId)).size).toBe(3);
  });

  it('the transaction that settles an item claims the next; a failure after that commit still issues the claimed item in the same job', async () => {
    const batchId = await submitItems([good(), good(), good()]);
    const before = await credentialCount();
    const w = workDeps(deps());
    let failed = false;
    const failAfterCommit: BatchWorkDeps = {
      ...w,
      issueItem: (input) => {
        const prepared = w.issueItem(input);
        return {
          issue: async (onRecorded) => {
            const result = await prepared.issue(onRecorded);
            if (!failed) {
              failed = true;
              throw new Error('failed after the record was committed');
            }
            return result;
          },
        };
      },
    };
    await processBatch(failAfterCommit, tenantId, batchId);
    const view = await status(batchId);
    expect(view).toMatchObject({ state: 'COMPLETED', counts: { issued: 3, processing: 0, unknown: 0 } });
    expect(await credentialCount()).toBe(before + 3);
    expect((await itemRows(rig.t.db, batchId)).map((r) => r.attemptCount)).toEqual([1, 1, 1]);
  });

  /** Work deps whose first item's record transaction fails after the caller's writes, as `fail` makes it. */
  const recordFailingOnce = (fail: (tx: Parameters<Parameters<ReturnType<BatchWorkDeps['issueItem']>['issue']>[0]>[0]) => Promise<unknown>): BatchWorkDeps => {
    const w = workDeps(deps());
    let failed = false;
    return {
      ...w,
      issueItem: (input) => {
        const prepared = w.issueItem(input);
        return {
          issue: (onRecorded) =>
            prepared.issue(async (tx, credentialId) => {
              await onRecorded(tx, credentialId);
              if (!failed) {
                failed = true;
                await fail(tx);
              }
            }),
        };
      },
    };
  };

  it('a record transaction that fails after claiming the next item takes that claim back with it: the next item is claimed again, issued once', async () => {
    const batchId = await submitItems([good(), good(), good()]);
    const before = await credentialCount();
    await processBatch(
      recordFailingOnce(async () => {
        throw new Error('the record transaction failed');
      }),
      tenantId,
      batchId,
    );
    const view = await status(batchId);
    // The first item's record failed after signing and storing, for a reason that does not say whether it was
    // written: its outcome is unknown (never replayed).
    expect(view).toMatchObject({ state: 'NEEDS_ATTENTION', counts: { issued: 2, unknown: 1, processing: 0, queued: 0 } });
    expect(view.items.map((i: { state: string }) => i.state)).toEqual(['OUTCOME_UNKNOWN', 'ISSUED', 'ISSUED']);
    expect(await credentialCount()).toBe(before + 2);
    expect((await itemRows(rig.t.db, batchId)).map((r) => r.attemptCount)).toEqual([1, 1, 1]);
  });

  it('a record PostgreSQL refuses (nothing committed) with its stored copy removed is a known failure: the item is retried, never OUTCOME_UNKNOWN', async () => {
    const batchId = await submitItems([good(), good(), good()]);
    const before = await credentialCount();
    await processBatch(recordFailingOnce((tx) => tx.execute(sql`select 1 / 0`)), tenantId, batchId);
    const rows = await itemRows(rig.t.db, batchId);
    expect(rows.map((r) => r.state)).toEqual(['QUEUED', 'ISSUED', 'ISSUED']);
    expect(rows[0]).toMatchObject({ attemptCount: 1, credentialId: null });
    expect((await status(batchId)).counts).toMatchObject({ unknown: 0, issued: 2 });
    expect(await credentialCount()).toBe(before + 2);
  });

  it('the warnings of an issued item are kept with it and shown in the projection', async () => {
    const batchId = await submitItems([{ ...good(), publishingOptions: { publish: true } }]);
    await run(batchId);
    const [issued] = (await status(batchId)).items;
    expect(issued.state).toBe('ISSUED');
    expect(issued.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ code: expect.stringMatching(/^PUBLISH_/), message: expect.any(String) })]));
  });

  it('a definitive refusal fails its item with the stable code and does not stop the rest', async () => {
    const batchId = await submitItems([good(), unregisteredIssuer(), good()]);
    await run(batchId);
    const view = await status(batchId);
    expect(view.state).toBe('COMPLETED');
    expect(view.counts).toMatchObject({ issued: 2, failed: 1 });
    expect(view.items[1]).toMatchObject({ state: 'FAILED', error: { code: 'ISSUER_DID_NOT_REGISTERED', message: expect.any(String) } });
    expect(view.items[1].credentialId).toBeUndefined();
  });

  it('an item left PROCESSING by an earlier job becomes OUTCOME_UNKNOWN, is never replayed, and the batch needs attention', async () => {
    const batchId = await submitItems([good(), good()]);
    const [first] = await itemRows(rig.t.db, batchId);
    await rig.t.db.execute(sql`update credential_batch_items set state = 'PROCESSING', attempt_count = 1, attempt_token = 'lost' where id = ${first!.id}`);
    await rig.t.db.execute(sql`update credential_batches set state = 'RUNNING', queued_count = 1, processing_count = 1 where id = ${batchId}`);
    const before = await credentialCount();
    await run(batchId);
    const view = await status(batchId);
    expect(view.state).toBe('NEEDS_ATTENTION');
    expect(view.items[0]).toMatchObject({ state: 'OUTCOME_UNKNOWN', error: { code: 'ATTEMPT_INTERRUPTED' } });
    expect(view.items[1].state).toBe('ISSUED');
    expect(await credentialCount()).toBe(before + 1);
    expect(view.expiresAt).toBeNull();
    expect((await itemRows(rig.t.db, batchId))[0]!.attemptCount).toBe(1);
  });

  it('the storage service refusing connections after signing is a known fault: the item is retried, the batch pauses as a whole, then completes', async () => {
    const batchId = await submitItems([good(), good(), good()]);
    const before = await credentialCount();
    const t0 = Date.now();
    await withStorageDown(() => run(batchId));
    const rows = await itemRows(rig.t.db, batchId);
    // The first item failed once and waits for its retry; the others were not touched (the batch paused).
    expect(rows.map((r) => [r.state, r.attemptCount])).toEqual([['QUEUED', 1], ['QUEUED', 0], ['QUEUED', 0]]);
    expect(rows[0]).toMatchObject({ errorCode: 'STORAGE_UNAVAILABLE' });
    expect(rows[0]!.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(t0 + 30_000);
    expect(await credentialCount()).toBe(before);
    expect((await status(batchId)).state).toBe('RUNNING');
    // It resumes by itself: a continuation waits for the item's retry time.
    const continuation = (await createdJobs(batchId)).find((j) => new Date(j.start_after).getTime() > Date.now());
    expect(new Date(continuation!.start_after).getTime()).toBe(rows[0]!.nextAttemptAt!.getTime());

    await makeDue(batchId);
    await run(batchId);
    const view = await status(batchId);
    expect(view).toMatchObject({ state: 'COMPLETED', counts: { issued: 3, unknown: 0, failed: 0 } });
    expect(await credentialCount()).toBe(before + 3);
    expect((await itemRows(rig.t.db, batchId)).map((r) => r.attemptCount)).toEqual([2, 1, 1]);
  });

  it('a fault whose outcome cannot be known (the storage service took the request and never answered) is OUTCOME_UNKNOWN, not retried; the batch needs attention', async () => {
    const batchId = await submitItems([good()]);
    const before = await credentialCount();
    const held: Socket[] = [];
    const silent = createNetServer((socket) => void held.push(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', () => done()));
    await pointStorageInstance(rig.t, SYSTEM_SERVICE_IDS.STORAGE, `http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    try {
      // The worker's fetcher with a short timeout, so the silence ends in seconds.
      const w = deps();
      const quick: WorkerDeps = { ...w, fetcher: createGuardedFetch({ allowPrivate: true, userAgent: 'css-test', timeoutMs: 1000 }) };
      await runJob(issueBatchConsumer, { tenantId, batchId }, quick);
    } finally {
      await pointStorageInstance(rig.t, SYSTEM_SERVICE_IDS.STORAGE, rig.storage.url);
      for (const socket of held) socket.destroy();
      await new Promise<void>((done) => silent.close(() => done()));
    }
    const view = await status(batchId);
    expect(view.state).toBe('NEEDS_ATTENTION');
    expect(view.items[0]).toMatchObject({ state: 'OUTCOME_UNKNOWN', error: { code: 'STORAGE_UNAVAILABLE' } });
    expect(await credentialCount()).toBe(before);
    expect(await createdJobs(batchId)).toHaveLength(1); // only the submission's own job, which runJob did not consume
  });

  it('an attempt given up as unknown that records its credential after all settles ISSUED, and its batch settles again', async () => {
    const batchId = await submitItems([good()]);
    // While the attempt runs, another job takes it for interrupted and the batch settles NEEDS_ATTENTION.
    const giveUp = async () => {
      await rig.t.db.execute(sql`update credential_batch_items set state = 'OUTCOME_UNKNOWN', error_code = 'ATTEMPT_INTERRUPTED' where batch_id = ${batchId}`);
      await rig.t.db.execute(
        sql`update credential_batches set state = 'NEEDS_ATTENTION', processing_count = 0, unknown_count = 1, settled_at = now() where id = ${batchId}`,
      );
    };
    await processBatch(workDeps(deps(), giveUp), tenantId, batchId);
    const view = await status(batchId);
    expect(view.items[0]).toMatchObject({ state: 'ISSUED', credentialId: expect.any(String) });
    expect(view.items[0].error).toBeUndefined();
    expect(view).toMatchObject({ state: 'COMPLETED', counts: { issued: 1, unknown: 0 }, resolvedAt: expect.any(String), expiresAt: expect.any(String) });
  });
});

describe('pre-dispatch faults (status-list mint failure)', () => {
  it('requeue with doubling backoff, capped, then FAILED when attempts are exhausted: never OUTCOME_UNKNOWN', async () => {
    const env = { BATCH_JOB_RETRY_LIMIT: '3', BATCH_JOB_RETRY_BACKOFF_SECONDS: '30', BATCH_JOB_RETRY_BACKOFF_MAX_SECONDS: '45' };
    const batchId = await submitItems([good()]);
    await withVcDown(async () => {
      const t0 = Date.now();
      await run(batchId, env);
      let [row] = await itemRows(rig.t.db, batchId);
      expect(row).toMatchObject({ state: 'QUEUED', attemptCount: 1, errorCode: expect.any(String) });
      expect(row!.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(t0 + 30_000);
      expect(row!.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now() + 30_000);
      expect((await status(batchId)).state).toBe('RUNNING');
      // The deferred retry is carried by a continuation that starts when the item is due.
      const continuation = (await createdJobs(batchId)).find((j) => new Date(j.start_after).getTime() > Date.now());
      expect(new Date(continuation!.start_after).getTime()).toBe(row!.nextAttemptAt!.getTime());

      await makeDue(batchId);
      const t1 = Date.now();
      await run(batchId, env);
      [row] = await itemRows(rig.t.db, batchId);
      expect(row).toMatchObject({ state: 'QUEUED', attemptCount: 2 });
      // 30 s doubled is 60 s, capped at 45 s.
      expect(row!.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(t1 + 45_000);
      expect(row!.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now() + 45_000);

      await makeDue(batchId);
      await run(batchId, env);
    });
    const view = await status(batchId);
    expect(view.state).toBe('COMPLETED');
    expect(view.items[0]).toMatchObject({ state: 'FAILED', error: { code: 'ITEM_ATTEMPTS_EXHAUSTED' } });
    expect(view.counts).toMatchObject({ failed: 1, unknown: 0 });
  });

  it('the delay doubles from the base per attempt and stops at the cap', () => {
    const policy = { retryLimit: 9, backoffSeconds: 30, backoffMaxSeconds: 600 };
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelaySeconds(n, policy))).toEqual([30, 60, 120, 240, 480, 600]);
  });

  it('with cancellation requested during the attempt the item is CANCELLED, the batch settles CANCELLED, no continuation', async () => {
    const batchId = await submitItems([good(), good()]);
    const jobsBefore = (await createdJobs(batchId)).length;
    const cancel = () => rig.t.call('POST', `${BATCHES}/${batchId}/cancel`, { token: rig.token }).then(() => undefined);
    await withVcDown(() => processBatch(workDeps(deps(), cancel), tenantId, batchId));
    const view = await status(batchId);
    expect(view.state).toBe('CANCELLED');
    expect(view.items.map((i: { state: string }) => i.state)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(view.counts).toMatchObject({ cancelled: 2, queued: 0, processing: 0 });
    expect(await createdJobs(batchId)).toHaveLength(jobsBefore);
  });

  it('attempts exhausted after cancellation still end FAILED', async () => {
    const batchId = await submitItems([good(), good()]);
    const cancel = () => rig.t.call('POST', `${BATCHES}/${batchId}/cancel`, { token: rig.token }).then(() => undefined);
    await withVcDown(() => processBatch(workDeps(deps({ BATCH_JOB_RETRY_LIMIT: '1' }), cancel), tenantId, batchId));
    const view = await status(batchId);
    expect(view.state).toBe('CANCELLED');
    expect(view.items[0]).toMatchObject({ state: 'FAILED', error: { code: 'ITEM_ATTEMPTS_EXHAUSTED' } });
    expect(view.items[1].state).toBe('CANCELLED');
  });
});

describe('cancellation and continuations', () => {
  it('the item in flight when cancel arrives finishes and stays issued; nothing further is claimed', async () => {
    const batchId = await submitItems([good(), good(), good()]);
    let cancelled = false;
    const cancelOnce = async () => {
      if (cancelled) throw new Error('a second item was claimed after cancellation');
      cancelled = true;
      await rig.t.call('POST', `${BATCHES}/${batchId}/cancel`, { token: rig.token });
    };
    await processBatch(workDeps(deps(), cancelOnce), tenantId, batchId);
    const view = await status(batchId);
    expect(view.state).toBe('CANCELLED');
    expect(view.items.map((i: { state: string }) => i.state)).toEqual(['ISSUED', 'CANCELLED', 'CANCELLED']);
    expect(view.items[0].credentialId).toEqual(expect.any(String));
  });

  it('a batch cancelled before any worker ran settles CANCELLED without issuing', async () => {
    const batchId = await submitItems([good()]);
    await rig.t.call('POST', `${BATCHES}/${batchId}/cancel`, { token: rig.token });
    const before = await credentialCount();
    await run(batchId);
    expect(await status(batchId)).toMatchObject({ state: 'CANCELLED', settledAt: expect.any(String), counts: { cancelled: 1 } });
    expect(await credentialCount()).toBe(before);
  });

  it('a job out of time claims no item and queues a continuation', async () => {
    const batchId = await submitItems([good()]);
    const jobsBefore = (await createdJobs(batchId)).length;
    const w = workDeps(deps());
    await processBatch({ ...w, policy: { ...w.policy, jobTimeoutSeconds: 0 } }, tenantId, batchId);
    expect(await createdJobs(batchId)).toHaveLength(jobsBefore + 1);
    expect(await status(batchId)).toMatchObject({ state: 'RUNNING', items: [{ state: 'QUEUED' }] });
  });

  it('a batch held by another job is left alone; a settled batch is not touched', async () => {
    const batchId = await submitItems([good()]);
    await rig.t.db.execute(sql`update credential_batches set claim_token = 'other', claim_expires_at = now() + interval '5 minutes' where id = ${batchId}`);
    const before = await batchRow(rig.t.db, batchId);
    await run(batchId);
    expect(await batchRow(rig.t.db, batchId)).toEqual(before);

    const done = await submitItems([good()]);
    await run(done);
    const settled = await batchRow(rig.t.db, done);
    await run(done);
    expect(await batchRow(rig.t.db, done)).toEqual(settled);
  });
});

describe('the real worker loop', () => {
  it('a submitted batch is issued by a running worker', { timeout: 120_000 }, async () => {
    const worker = await startTestWorker(rig.t.databaseUrl, [issueBatchConsumer]);
    try {
      // The worker's start-up seeds the system instances from its settings: point them at the test services again.
      await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, rig.vc);
      await pointStorageInstance(rig.t, SYSTEM_SERVICE_IDS.STORAGE, rig.storage.url);
      const batchId = await submitItems([good('loop-a'), good('loop-b')]);
      let view = await status(batchId);
      for (let i = 0; i < 300 && view.state !== 'COMPLETED'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        view = await status(batchId);
      }
      expect(view).toMatchObject({ state: 'COMPLETED', counts: { issued: 2 } });
    } finally {
      await worker.stop();
    }
  });
});
