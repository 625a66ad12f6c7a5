import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findTenantBatch } from '../core/batches/batch-repository.ts';
import { resolveItem } from '../core/batches/item-resolution.ts';
import { reconcileBatches } from '../core/batches/reconcile-batches.ts';
import { createJobQueue, type JobQueue } from '../core/jobs/job-queue.ts';
import { QUEUE_NAMES } from '../core/jobs/queues.ts';
import { createLogger } from '../core/logging/logger.ts';
import { credentials, credentialStatusEntries } from '../db/schema/credentials.ts';
import { itemRows, submit } from '../test/rig/batch-submission.ts';
import { logLines, postgresParts, spawnCli } from '../test/rig/cli.ts';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, systemServicesEnv, type IssuanceRig } from '../test/rig/credential-fixtures.ts';
import { statusEntriesAllocated, storedObjects } from '../test/rig/issuance-evidence.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';
import { startWorkerProcess, type WorkerProcess } from '../test/rig/worker-process.ts';

/**
 * The orphan commands against what a killed worker really leaves: a real worker process issues a
 * batch and is SIGKILLed mid-item until a signed copy or a status entry exists that no record owns
 * (bounded), then the batch settles. The commands must find exactly what the services hold beyond
 * our records, remove nothing on --dry-run, and on the real run remove them and leave every record whole.
 */
const JOB_TIMEOUT = '30';
const MAX_KILLS = 12;
const logger = createLogger('error');
let rig: IssuanceRig;
let jobs: JobQueue;
let tenantId: string;
let env: Record<string, string>;
const running: WorkerProcess[] = [];

beforeAll(async () => {
  rig = await startIssuanceRig({ WORKER_JOB_TIMEOUT_SECONDS: JOB_TIMEOUT });
  jobs = createJobQueue(rig.t.databaseUrl, logger);
  tenantId = await rig.t.tenantOf('tenantA');
  env = { ...postgresParts(rig.t.databaseUrl), DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn', FETCH_ALLOW_PRIVATE_URLS: 'true' };
}, 120_000);
afterEach(async () => {
  for (const worker of running.splice(0)) await worker.stop('SIGKILL');
});
afterAll(async () => {
  await jobs?.close();
  await rig?.close();
});

const worker = async (signal: AbortSignal) => {
  const started = await startWorkerProcess(rig.t.databaseUrl, { ...systemServicesEnv(rig), WORKER_JOB_TIMEOUT_SECONDS: JOB_TIMEOUT }, signal);
  running.push(started);
  return started;
};
const until = async (what: string, signal: AbortSignal, check: () => Promise<boolean>, limitMs = 120_000) => {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    signal.throwIfAborted();
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const batchState = async (batchId: string) => (await findTenantBatch(rig.t.db, tenantId, batchId))!.state;
const isOpen = (state: string) => state === 'QUEUED' || state === 'RUNNING';
const settledItems = async (batchId: string) => (await itemRows(rig.t.db, batchId)).filter((r) => r.state !== 'QUEUED' && r.state !== 'PROCESSING').length;

/** As test/faults/batch-faults.test.ts does after a kill: the clocks a killed worker leaves running are moved past their deadlines, then the real sweep runs. */
const recoverAfterKill = async (batchId: string) => {
  await rig.t.db.execute(sql`update pgboss.job set started_on = now() - interval '1 hour' where name = ${QUEUE_NAMES.issueBatch} and state = 'active' and data->>'batchId' = ${batchId}`);
  await rig.t.db.execute(sql`update pgboss.job set start_after = now() where name = ${QUEUE_NAMES.issueBatch} and state in ('created', 'retry') and data->>'batchId' = ${batchId}`);
  await rig.t.db.execute(
    sql`update credential_batches set claim_expires_at = case when claim_token is null then null else now() - interval '1 second' end, last_progress_at = now() - interval '1 hour' where id = ${batchId}`,
  );
  await reconcileBatches({ db: rig.t.db, logger, jobs, jobTimeoutSeconds: Number(JOB_TIMEOUT), retentionDays: 30, batchSize: 10 });
};

/** What the issuer has: our records and their status entries, and what the services hold. */
const evidence = async () => {
  const records = await rig.t.db.select().from(credentials).where(eq(credentials.issuerDid, rig.did));
  const recordEntries = (await rig.t.db.select({ n: sql<number>`count(*)::int` }).from(credentialStatusEntries).where(eq(credentialStatusEntries.statusListIssuer, rig.did)))[0]!.n;
  return {
    records,
    recordEntries,
    stored: (await storedObjects(rig.storage.settings.localDirectory, rig.did)).count,
    statusEntries: await statusEntriesAllocated(rig.vc, rig.did),
  };
};
const orphanCount = (e: Awaited<ReturnType<typeof evidence>>) => e.stored - e.records.length + (e.statusEntries - e.recordEntries);
const lines = (stdout: string, prefix: string) => stdout.split('\n').filter((l) => l.startsWith(prefix));

describe('css-operator list-orphans and remove-orphans after a worker killed mid-batch', () => {
  it(
    'finds the stored copies and status entries no record owns; --dry-run removes nothing; the real run removes them and every record stays whole',
    async ({ signal }) => {
      const items = Array.from({ length: 40 }, () =>
        issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did), { storageOptions: { encrypt: false } }),
      );
      const res = await submit(rig.t, rig.token, { items });
      expect(res.status, res.text).toBe(202);
      const batchId = res.body.batchId as string;

      // Kill the worker mid-item until something exists that no record owns (or the batch ends: then the run proves nothing and fails below).
      let kills = 0;
      while (kills < MAX_KILLS && isOpen(await batchState(batchId)) && orphanCount(await evidence()) === 0) {
        const settled = await settledItems(batchId);
        const victim = await worker(signal);
        await until('an item to settle', signal, async () => (await settledItems(batchId)) > settled || !isOpen(await batchState(batchId)));
        await new Promise((r) => setTimeout(r, (kills * 37) % 150));
        await victim.stop('SIGKILL');
        running.splice(running.indexOf(victim), 1);
        kills += 1;
        await recoverAfterKill(batchId);
      }
      const last = await worker(signal);
      await until('the batch to settle', signal, async () => !isOpen(await batchState(batchId)), 180_000);
      expect(await last.stop('SIGTERM')).toBe(0);

      const before = await evidence();
      const expected = orphanCount(before);
      expect(expected, `orphans after ${kills} kills`).toBeGreaterThan(0);

      const listed = await spawnCli(['list-orphans', '--older-than=0', '--reason=TICKET-ORPHANS'], env);
      expect(listed.code, listed.stderr).toBe(0);
      const orphans = lines(listed.stdout, 'orphan: ');
      expect(orphans).toHaveLength(expected);
      expect(orphans.filter((l) => l.includes('kind=stored-copy'))).toHaveLength(before.stored - before.records.length);
      expect(logLines(listed.stderr)).toEqual([expect.objectContaining({ message: 'Operator list-orphans', reason: 'TICKET-ORPHANS', olderThanMinutes: 0 })]);
      // Every orphan names the batch's item it was made for.
      for (const line of orphans) expect(line).toMatch(/correlationId=\S+-\d+ /);

      // Unknown items hold their orphans until the operator settles them: here, confirmed failed.
      const unknown = (await itemRows(rig.t.db, batchId)).filter((r) => r.state === 'OUTCOME_UNKNOWN');
      const held = orphans.filter((l) => l.includes('heldBy='));
      for (const line of held) expect(line).toMatch(new RegExp(`heldBy=batch ${batchId} index \\d+ OUTCOME_UNKNOWN$`));
      console.log(`orphans: ${kills} kill(s), ${unknown.length} unknown item(s), ${expected} orphan(s) (${held.length} held)`);
      for (const item of unknown) {
        const version = (await findTenantBatch(rig.t.db, tenantId, batchId))!.version;
        const resolved = await resolveItem(rig.t.db, { tenantId, batchId, index: item.index, version, finding: { as: 'failed', evidence: 'list-orphans' }, reason: 'T', dryRun: false, retentionDays: 30 });
        expect(resolved.outcome).toBe('resolved');
      }

      const dry = await spawnCli(['remove-orphans', '--older-than=0', '--dry-run'], env);
      expect(dry.code, dry.stderr).toBe(0);
      expect(lines(dry.stdout, 'would remove: ')).toHaveLength(expected);
      expect(dry.stderr).toContain('Dry run: nothing was removed.');
      const afterDry = await evidence();
      expect({ stored: afterDry.stored, statusEntries: afterDry.statusEntries }).toEqual({ stored: before.stored, statusEntries: before.statusEntries });
      expect((await spawnCli(['list-orphans', '--older-than=0'], env)).stdout.split('\n').filter((l) => l.startsWith('orphan: '))).toHaveLength(expected);

      const removed = await spawnCli(['remove-orphans', '--older-than=0', '--reason=TICKET-ORPHANS'], env);
      expect(removed.code, removed.stdout + removed.stderr).toBe(0);
      expect(lines(removed.stdout, 'removed: ')).toHaveLength(expected);
      const after = await evidence();
      // The stored copies are gone, the status entries retired (their indexes stay allocated, their bits set).
      expect(after.stored).toBe(after.records.length);
      expect(after.records).toEqual(before.records);
      expect(after.recordEntries).toBe(before.recordEntries);
      expect(lines((await spawnCli(['list-orphans', '--older-than=0'], env)).stdout, 'orphan: ')).toEqual([]);
      // Every record's stored copy is still served, and reads through the API.
      for (const record of after.records) {
        expect((await fetch(record.storageUri)).status, record.storageUri).toBe(200);
      }
      const one = after.records[0]!;
      expect((await rig.t.call('GET', `/api/v1/credentials/${one.id}`, { token: rig.token })).status).toBe(200);
    },
    420_000,
  );

  it('--older-than keeps what is younger than the window (an attempt in flight), and bad values are usage errors', async () => {
    const young = await spawnCli(['list-orphans', '--older-than=600'], env);
    expect(young.code, young.stderr).toBe(0);
    expect(lines(young.stdout, 'orphan: ')).toEqual([]);
    // A removal that finds nothing still writes its audit line (who, why, which window).
    const none = await spawnCli(['remove-orphans', '--older-than=600', '--reason=TICKET-YOUNG'], env);
    expect(none.code, none.stderr).toBe(0);
    expect(lines(none.stdout, 'removed: ')).toEqual([]);
    expect(logLines(none.stderr)).toContainEqual(
      expect.objectContaining({ level: 'warn', audit: true, message: 'Operator remove-orphans', reason: 'TICKET-YOUNG', olderThanMinutes: 600, operator: expect.any(String) }),
    );
    for (const bad of ['--older-than=-1', '--older-than=abc']) {
      expect((await spawnCli(['remove-orphans', bad], env)).code, bad).toBe(2);
    }
  }, 120_000);
});
