import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerDeps } from '../../consumers/consumer.ts';
import { issueBatchConsumer } from '../../consumers/jobs/issue-batch.ts';
import { createJobQueue, type JobQueue } from '../../core/jobs/job-queue.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { createGuardedFetch } from '../../core/net/guarded-fetch.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { credentials } from '../../db/schema/index.ts';
import { BATCHES, itemRows, submit } from '../rig/batch-submission.ts';
import { issueBody, pointStorageInstance, SAMPLES, samplePayload, startIssuanceRig, systemServicesEnv, type IssuanceRig } from '../rig/credential-fixtures.ts';
import { insertVcInstance } from '../rig/did-fixtures.ts';
import { startFaultProxy, type FaultProxy } from '../rig/fault-proxy.ts';
import { statusEntriesAllocated, storedObjects, vcSignatureCount } from '../rig/issuance-evidence.ts';
import { runJob, testWorkerDeps } from '../rig/jobs.ts';
import { startWorkerProcess, type WorkerProcess } from '../rig/worker-process.ts';

/**
 * Faults whose outcome is known, and faults whose outcome is not (decisions "Known and unknown
 * outcomes"; issue 29 §2). The VC and storage services are real; a fault proxy in front of each
 * refuses connections, or takes a request, lets the service act on it and never answers. Every
 * scenario counts what exists where it is made and kept: our records, the VC service's signatures
 * and status entries, the storage service's objects.
 */

const logger = createLogger('error');
const STORE = /^\/api\/v4\/(public|private)/;
const SIGN = /^\/v2\/credentials\/issue/;
const MINT = /^\/agent\/issueBitstringStatusList/;
let rig: IssuanceRig;
let jobs: JobQueue;
let tenantId: string;
let vcProxy: FaultProxy;
let storageProxy: FaultProxy;
let did: string;
let workerDeps: WorkerDeps;
const running: WorkerProcess[] = [];

beforeAll(async () => {
  rig = await startIssuanceRig();
  jobs = createJobQueue(rig.t.databaseUrl, logger);
  tenantId = await rig.t.tenantOf('tenantA');
  storageProxy = await startFaultProxy(rig.storage.url);
  vcProxy = await startFaultProxy(rig.vc.url);
  await pointStorageInstance(rig.t, SYSTEM_SERVICE_IDS.STORAGE, storageProxy.url);
  const instance = await insertVcInstance(rig.t.db, rig.t.services.secretBox, tenantId, { url: vcProxy.url, apiKey: rig.vc.apiKey });
  const res = await rig.t.call('POST', '/api/v1/dids', { token: rig.token, body: { type: 'MANAGED', method: 'DID_WEB', alias: `known-${crypto.randomUUID().slice(0, 8)}`, serviceInstanceId: instance.id } });
  expect(res.status, res.text).toBe(201);
  did = res.body.did as string;
  // The worker's deps, with a fetcher that gives up after 1 s, so a silent service ends an attempt quickly.
  workerDeps = { ...testWorkerDeps(rig.t.db, logger, jobs), fetcher: createGuardedFetch({ allowPrivate: true, userAgent: 'css-test', timeoutMs: 1000 }) };
}, 120_000);
afterEach(async () => {
  for (const worker of running.splice(0)) await worker.stop('SIGKILL');
  for (const proxy of [vcProxy, storageProxy]) {
    proxy.reset();
    await proxy.listen();
  }
});
afterAll(async () => {
  await jobs?.close();
  await vcProxy?.close();
  await storageProxy?.close();
  await rig?.close();
});

/** Stored unencrypted, so the storage service's copies can be counted for this issuer. */
const item = () => issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did), { storageOptions: { encrypt: false } });
const submitBatch = async (count: number) => {
  const res = await submit(rig.t, rig.token, { items: Array.from({ length: count }, item) });
  expect(res.status, res.text).toBe(202);
  return res.body.batchId as string;
};
const run = (batchId: string) => runJob(issueBatchConsumer, { tenantId, batchId }, workerDeps);
const makeDue = (batchId: string) => rig.t.db.execute(sql`update credential_batch_items set next_attempt_at = now() where batch_id = ${batchId} and state = 'QUEUED'`);
const projection = async (batchId: string) => (await rig.t.call('GET', `${BATCHES}/${batchId}`, { token: rig.token })).body;

/** What exists for the issuer: our records, the VC service's signatures and status entries, the stored objects. */
const evidence = async () => ({
  records: (await rig.t.db.select({ n: sql<number>`count(*)::int` }).from(credentials).where(eq(credentials.issuerDid, did)))[0]!.n,
  signatures: vcSignatureCount(rig.vc),
  statusEntries: await statusEntriesAllocated(rig.vc, did),
  stored: (await storedObjects(rig.storage.settings.localDirectory, did)).credentialIds.length,
});
const added = (before: Awaited<ReturnType<typeof evidence>>, after: Awaited<ReturnType<typeof evidence>>) => ({
  records: after.records - before.records,
  signatures: after.signatures - before.signatures,
  statusEntries: after.statusEntries - before.statusEntries,
  stored: after.stored - before.stored,
});

/** Polls `check` (bounded), stopping when the test's signal aborts. */
const until = async (what: string, signal: AbortSignal, check: () => Promise<boolean>, limitMs = 120_000) => {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    signal.throwIfAborted();
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('faults whose outcome is known are retried; only an unknowable one is OUTCOME_UNKNOWN', () => {
  it('storage refusing connections after signing: the item is retried (signed copy discarded, entry unused), the batch pauses, then completes', async () => {
    const batchId = await submitBatch(2);
    const before = await evidence();
    await storageProxy.stopListening();
    await run(batchId);
    const rows = await itemRows(rig.t.db, batchId);
    expect(rows.map((r) => [r.state, r.attemptCount, r.errorCode])).toEqual([['QUEUED', 1, 'STORAGE_UNAVAILABLE'], ['QUEUED', 0, null]]);
    expect(added(before, await evidence())).toEqual({ records: 0, signatures: 1, statusEntries: 1, stored: 0 });

    await storageProxy.listen();
    await makeDue(batchId);
    await run(batchId);
    expect(await projection(batchId)).toMatchObject({ state: 'COMPLETED', counts: { issued: 2, unknown: 0, failed: 0 } });
    // The discarded signature and its unused entry stay counted: one more of each than credentials kept.
    expect(added(before, await evidence())).toEqual({ records: 2, signatures: 3, statusEntries: 3, stored: 2 });
  });

  it("every call for an item carries the item's correlation id (x-correlation-id), and the VC service logs its signature under it", async () => {
    const batchId = await submitBatch(2);
    const sent = vcProxy.received.length;
    const stored = storageProxy.received.length;
    await run(batchId);
    const items = await itemRows(rig.t.db, batchId);
    expect(items.map((i) => i.state)).toEqual(['ISSUED', 'ISSUED']);
    const ids = items.map((i) => i.correlationId);
    expect(ids[0]).toMatch(/-0$/);
    const vcCalls = vcProxy.received.slice(sent);
    const storageCalls = storageProxy.received.slice(stored);
    for (const id of ids) {
      expect(vcCalls.filter((c) => c.correlationId === id).map((c) => c.path).sort()).toEqual(['/agent/issueBitstringStatusList', '/v2/credentials/issue']);
      expect(storageCalls.filter((c) => c.correlationId === id).map((c) => c.path)).toEqual(['/api/v4/public']);
      const signedUnder = rig.vc.program
        .output()
        .stdout.split('\n')
        .filter((line) => line.includes(id))
        .map((line) => JSON.parse(line) as { path?: string; correlationId?: string });
      expect(signedUnder.some((l) => l.path === '/v2/credentials/issue' && l.correlationId === id), `the VC service's log for ${id}`).toBe(true);
    }
  });

  it('storage taking the request, storing, and never answering: OUTCOME_UNKNOWN, never retried (the stored copy is the orphan to settle)', async () => {
    const batchId = await submitBatch(1);
    const before = await evidence();
    storageProxy.rule(STORE, 'hold-answer');
    await run(batchId);
    const view = await projection(batchId);
    expect(view).toMatchObject({ state: 'NEEDS_ATTENTION', counts: { unknown: 1 } });
    expect(view.items[0]).toMatchObject({ state: 'OUTCOME_UNKNOWN', error: { code: 'STORAGE_UNAVAILABLE' } });
    expect(added(before, await evidence())).toEqual({ records: 0, signatures: 1, statusEntries: 1, stored: 1 });
    expect((await itemRows(rig.t.db, batchId))[0]!.attemptCount).toBe(1);
  });

  it('the VC service refusing connections at the sign request: nothing signed, the item is retried, the batch pauses, then completes', async () => {
    const batchId = await submitBatch(2);
    const before = await evidence();
    // The status entry is minted, then the VC service goes away before the sign request.
    vcProxy.rule(MINT, 'close-after');
    await run(batchId);
    const rows = await itemRows(rig.t.db, batchId);
    expect(rows.map((r) => [r.state, r.attemptCount, r.errorCode])).toEqual([['QUEUED', 1, 'VC_UNAVAILABLE'], ['QUEUED', 0, null]]);
    expect(added(before, await evidence())).toEqual({ records: 0, signatures: 0, statusEntries: 1, stored: 0 });

    vcProxy.reset();
    await vcProxy.listen();
    await makeDue(batchId);
    await run(batchId);
    expect(await projection(batchId)).toMatchObject({ state: 'COMPLETED', counts: { issued: 2, unknown: 0 } });
    expect(added(before, await evidence())).toEqual({ records: 2, signatures: 2, statusEntries: 3, stored: 2 });
  });

  it('the VC service signing and never answering: OUTCOME_UNKNOWN, never retried, nothing stored', async () => {
    const batchId = await submitBatch(1);
    const before = await evidence();
    vcProxy.rule(SIGN, 'hold-answer');
    await run(batchId);
    const view = await projection(batchId);
    expect(view.items[0]).toMatchObject({ state: 'OUTCOME_UNKNOWN', error: { code: 'VC_UNAVAILABLE' } });
    expect(added(before, await evidence())).toEqual({ records: 0, signatures: 1, statusEntries: 1, stored: 0 });
  });

  it(
    'a storage outage mid-batch under a real worker: the batch pauses, no item becomes OUTCOME_UNKNOWN, and it completes after the outage',
    async ({ signal }) => {
      const count = 12;
      const batchId = await submitBatch(count);
      const before = await evidence();
      const worker = await startWorkerProcess(
        rig.t.databaseUrl,
        { ...systemServicesEnv(rig), SYSTEM_STORAGE_BASE_URL: storageProxy.url, BATCH_JOB_RETRY_BACKOFF_SECONDS: '1', BATCH_JOB_RETRY_BACKOFF_MAX_SECONDS: '2', BATCH_JOB_RETRY_LIMIT: '10' },
        signal,
      );
      running.push(worker);
      const issuedSoFar = async () => (await itemRows(rig.t.db, batchId)).filter((r) => r.state === 'ISSUED').length;
      await until('some items issued', signal, async () => (await issuedSoFar()) >= 3);
      // The outage begins between two uploads: the next one is stored and answered, then nobody listens. (Dropping
      // the connections at an arbitrary moment could cut an upload in flight, whose outcome is rightly unknown.)
      storageProxy.rule(/.*/, 'close-after');
      // The outage lasts until the worker has met it at least twice (a retry after the pause failed too).
      await until('the outage to be met twice', signal, async () => (await itemRows(rig.t.db, batchId)).some((r) => r.state === 'QUEUED' && r.attemptCount >= 2));
      const duringOutage = await itemRows(rig.t.db, batchId);
      expect(duringOutage.filter((r) => r.attemptCount > 1), 'only the item at the head waits; the batch paused').toHaveLength(1);
      storageProxy.reset();
      await storageProxy.listen();
      await until('the batch to settle', signal, async () => ['COMPLETED', 'NEEDS_ATTENTION', 'FAILED'].includes((await projection(batchId)).state));
      const view = await projection(batchId);
      expect(view).toMatchObject({ state: 'COMPLETED', counts: { total: count, issued: count, unknown: 0, failed: 0 } });
      const attempts = (await itemRows(rig.t.db, batchId)).reduce((sum, r) => sum + r.attemptCount, 0);
      const extra = attempts - count;
      expect(extra).toBeGreaterThanOrEqual(2);
      // Each failed attempt signed once and was discarded: signatures are the credentials plus those attempts.
      expect(added(before, await evidence())).toEqual({ records: count, signatures: count + extra, statusEntries: count + extra, stored: count });
      expect(worker.logs().some((l) => l.message === 'Batch paused: a service it needs is down')).toBe(true);
      expect(await worker.stop('SIGTERM')).toBe(0);
    },
    180_000,
  );
});
