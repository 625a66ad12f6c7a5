import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logging/logger.ts';
import { createJobQueue } from '../../core/jobs/job-queue.ts';
import { requestVerification } from '../../core/library/request-verification.ts';
import { externalCredentials, verificationRuns } from '../../db/schema/index.ts';
import { runJob, startTestWorker, testWorkerDeps, testWorkerEnv } from '../../test/rig/jobs.ts';
import { annotations, insertLibraryRecord, LIBRARY, startLibraryRig, type LibraryRig } from '../../test/rig/library-fixtures.ts';
import { runProgram, type Program } from '../../test/rig/program.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { libraryReconcilePendingRuns } from './library-reconcile-pending-runs.ts';

const logger = createLogger('error');
const runOf = async (db: TestApp['db'], recordId: string) =>
  (await db.select().from(verificationRuns).where(eq(verificationRuns.recordId, recordId)).orderBy(sql`${verificationRuns.generation} desc`))[0]!;

describe('library.reconcile-pending-runs', () => {
  let t: TestApp;
  let tenantId: string;
  beforeAll(async () => {
    t = await startTestApp();
    await t.call('GET', LIBRARY, { token: await t.token('tenantA') });
    tenantId = await t.tenantOf('tenantA');
  });
  afterAll(() => t.close());

  it('settles pending generations whose job is gone as retryable failures, oldest first, at most the batch size; queued ones wait', async () => {
    const jobs = createJobQueue(t.databaseUrl, logger);
    try {
      const lostOld = await insertLibraryRecord(t.db, tenantId, { summary: 'pending' });
      const lostNew = await insertLibraryRecord(t.db, tenantId, { summary: 'pending' });
      await t.db.update(verificationRuns).set({ requestedAt: new Date(Date.now() - 60_000) }).where(eq(verificationRuns.recordId, lostOld));
      const queued = await insertLibraryRecord(t.db, tenantId, { origin: 'NATIVE' });
      await t.db.transaction((tx) => requestVerification(tx, jobs, { tenantId, recordId: queued, origin: 'NATIVE' }));
      const settled = await insertLibraryRecord(t.db, tenantId, { summary: 'verified' });

      const deps = testWorkerDeps(t.db, logger, jobs, { LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE: '1' });
      await runJob(libraryReconcilePendingRuns, {}, deps);
      expect(await runOf(t.db, lostOld)).toMatchObject({ state: 'FAILED', summary: 'failed', failureCode: 'VERIFICATION_UNAVAILABLE', failureRetryable: true });
      expect((await runOf(t.db, lostNew)).state).toBe('PENDING');
      await runJob(libraryReconcilePendingRuns, {}, deps);
      expect((await runOf(t.db, lostNew)).state).toBe('FAILED');
      await runJob(libraryReconcilePendingRuns, {}, deps);
      expect((await runOf(t.db, queued)).state).toBe('PENDING');
      expect((await runOf(t.db, settled)).state).toBe('COMPLETE');

      const token = await t.token('tenantA');
      const shown = await t.call('GET', `${LIBRARY}/${lostOld}`, { token });
      expect(shown.body.verification).toMatchObject({ state: 'failed', failure: { code: 'VERIFICATION_UNAVAILABLE', retryable: true } });
    } finally {
      await jobs.close();
    }
  });

  it('is scheduled on LIBRARY_RECONCILE_PENDING_RUNS_CRON by the worker', async () => {
    const worker = await startTestWorker(t.databaseUrl, [libraryReconcilePendingRuns], logger, { LIBRARY_RECONCILE_PENDING_RUNS_CRON: '*/7 * * * *' });
    try {
      const schedules = await worker.boss.getSchedules();
      expect(schedules.find((s) => s.name === 'library.reconcile-pending-runs')).toMatchObject({ cron: '*/7 * * * *' });
    } finally {
      await worker.stop();
    }
  });
});

/** Accepts connections and never answers: a generation reading from it hangs until killed. */
const startHangingServer = async (): Promise<{ url: string; close(): Promise<void> }> => {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/copy.json`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
};

describe('a worker killed during a verification generation', () => {
  let rig: LibraryRig;
  let hanging: Awaited<ReturnType<typeof startHangingServer>>;
  const programs: Program[] = [];
  beforeAll(async () => {
    rig = await startLibraryRig();
    hanging = await startHangingServer();
  });
  afterAll(async () => {
    for (const program of programs) if (program.child.exitCode === null && program.child.signalCode === null) program.child.kill('SIGKILL');
    await hanging?.close();
    await rig?.close();
  });

  it('restarted, the generation settles (complete or a retryable failure) and is never left pending past the sweep', { timeout: 150_000 }, async () => {
    const env = testWorkerEnv(rig.t.databaseUrl, { ...rig.workerEnv, WORKER_JOB_TIMEOUT_SECONDS: '30', LOG_LEVEL: 'error' });
    // A worker start gives the queues their settings (a 30 s job expiry), as in a deployment.
    await (await startTestWorker(rig.t.databaseUrl, [], logger, { ...rig.workerEnv, WORKER_JOB_TIMEOUT_SECONDS: '30' })).stop();

    const source = await rig.issue({ encrypt: false });
    const created = await rig.register({ sourceUrl: source.storageUri, annotations: annotations() });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const [copy] = await rig.t.db.select().from(externalCredentials).where(eq(externalCredentials.id, id));
    await rig.t.db.update(externalCredentials).set({ storageUri: hanging.url }).where(eq(externalCredentials.id, id));

    const doomed = runProgram('consumers/worker.ts', env);
    programs.push(doomed);
    const activeJob = async () =>
      (await rig.t.db.execute(sql`select state from pgboss.job where name = 'library.verify-generation' and data->>'recordId' = ${id}`)) as unknown as { state: string }[];
    for (let i = 0; i < 300 && !(await activeJob()).some((j) => j.state === 'active'); i++) await new Promise((r) => setTimeout(r, 100));
    expect((await activeJob()).map((j) => j.state)).toContain('active');
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    expect((await runOf(rig.t.db, id)).state).toBe('PENDING');

    await rig.t.db.update(externalCredentials).set({ storageUri: copy!.storageUri }).where(eq(externalCredentials.id, id));
    const restarted = runProgram('consumers/worker.ts', env);
    programs.push(restarted);
    const sweepDeps = testWorkerDeps(rig.t.db, logger);
    let run = await runOf(rig.t.db, id);
    for (let i = 0; i < 120 && run.state === 'PENDING'; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      // The sweep as its cron would run it: it must leave the run alone while the killed job may still be retried.
      if (i % 5 === 4) await runJob(libraryReconcilePendingRuns, {}, sweepDeps);
      run = await runOf(rig.t.db, id);
    }
    expect(run.state).not.toBe('PENDING');
    if (run.state === 'FAILED') {
      expect(run).toMatchObject({ failureCode: 'VERIFICATION_UNAVAILABLE', failureRetryable: true });
      const again = await rig.t.call('POST', `${LIBRARY}/${id}/verify`, { token: rig.token });
      expect(again.status).toBe(202);
      for (let i = 0; i < 200 && (await runOf(rig.t.db, id)).state === 'PENDING'; i++) await new Promise((r) => setTimeout(r, 100));
    }
    expect(await runOf(rig.t.db, id)).toMatchObject({ state: 'COMPLETE', summary: 'verified' });
    restarted.child.kill('SIGTERM');
    await restarted.exited;
    const pending = await rig.t.db.select().from(verificationRuns).where(and(eq(verificationRuns.recordId, id), eq(verificationRuns.state, 'PENDING')));
    expect(pending).toEqual([]);
  });
});
