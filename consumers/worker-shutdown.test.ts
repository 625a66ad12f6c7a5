import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerTimings } from './worker.ts';
import { QUEUE_NAMES } from '../core/jobs/queues.ts';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { runProgram } from '../test/rig/program.ts';
import { testWorkerEnv } from '../test/rig/jobs.ts';

/**
 * Shutdown and heartbeat timings, against the worker program with shortened timings
 * (test/rig/worker-program.ts: the internal option, never a setting) and a consumer that runs
 * `jobMs` per job. Nothing here waits out the real 30 s drain.
 */
interface Started {
  child: ReturnType<typeof spawn>;
  exited: Promise<number | null>;
  logs(): { level: string; message: string; [field: string]: unknown }[];
  stderr(): string;
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const until = async (what: string, check: () => boolean | Promise<boolean>, attempts = 300) => {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const database = async (): Promise<TestDatabase & { sql: postgres.Sql }> => {
  const created = await createTestDatabase();
  const sql = postgres(created.url, { max: 1, onnotice: () => {} });
  cleanup.push(async () => {
    await sql.end();
    await created.drop();
  });
  return { ...created, sql };
};

const startWorker = async (databaseUrl: string, options: { timings?: Partial<WorkerTimings>; jobMs?: number }, heartbeat?: string) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/rig/worker-program.ts', JSON.stringify(options)], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'info',
      ...testWorkerEnv(databaseUrl, heartbeat ? { WORKER_HEARTBEAT_PATH: heartbeat } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanup.push(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  const started: Started = {
    child,
    exited,
    logs: () =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    stderr: () => stderr,
  };
  await until('the worker to start', () => stdout.includes('"Worker started"') || child.exitCode !== null);
  expect(stdout, stderr).toContain('"Worker started"');
  return started;
};

const logged = (worker: Started, message: string) => worker.logs().filter((l) => l.message === message);

const enqueue = async (sql: postgres.Sql) => {
  const rows = await sql<{ id: string }[]>`
    insert into pgboss.job (name, data) values (${QUEUE_NAMES.issueBatch}, ${sql.json({ tenantId: 't1', batchId: 'b1' })}) returning id`;
  return rows[0]!.id;
};
const jobState = async (sql: postgres.Sql, id: string) =>
  (await sql<{ state: string }[]>`select state from pgboss.job where id = ${id}`)[0]?.state;

describe('worker shutdown', () => {
  it('SIGTERM stops taking jobs, lets the running job finish, and exits 0', async () => {
    const db = await database();
    const worker = await startWorker(db.url, { jobMs: 1500, timings: { drainMs: 20_000, shutdownLimitMs: 30_000 } });
    const running = await enqueue(db.sql);
    await until('the job to start', () => logged(worker, 'Test job started').length === 1);
    const waiting = await enqueue(db.sql);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await jobState(db.sql, running)).toBe('completed');
    expect(await jobState(db.sql, waiting)).toBe('created');
    expect(logged(worker, 'Test job finished')).toHaveLength(1);
    expect(logged(worker, 'Worker stopped')[0]).toMatchObject({ outcome: 'drained' });
  });

  it('a job still running after the drain time stays claimed (retried after its expiry), and the worker exits 0', async () => {
    const db = await database();
    const worker = await startWorker(db.url, { jobMs: 120_000, timings: { drainMs: 300, shutdownLimitMs: 30_000 } });
    const running = await enqueue(db.sql);
    await until('the job to start', () => logged(worker, 'Test job started').length === 1);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await jobState(db.sql, running)).toBe('active');
    expect(logged(worker, 'A running job did not finish within the drain time; it stays claimed until its expiry')).toHaveLength(1);
    expect(logged(worker, 'Test job finished')).toHaveLength(0);
  });

  it('a shutdown that does not end within its limit exits non-zero', async () => {
    const db = await database();
    // The drain is longer than the limit here only so that the limit is what ends the shutdown.
    const worker = await startWorker(db.url, { jobMs: 120_000, timings: { drainMs: 60_000, shutdownLimitMs: 500 } });
    await enqueue(db.sql);
    await until('the job to start', () => logged(worker, 'Test job started').length === 1);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(1);
    expect(logged(worker, 'Worker shutdown exceeded its time limit')).toHaveLength(1);
  });

  it('a second signal exits at once, with the real 30 s drain and 45 s limit', async () => {
    const db = await database();
    const worker = await startWorker(db.url, { jobMs: 120_000 });
    const running = await enqueue(db.sql);
    await until('the job to start', () => logged(worker, 'Test job started').length === 1);
    worker.child.kill('SIGTERM');
    await until('the stop to begin', () => logged(worker, 'Worker stopping').length === 1);
    expect(logged(worker, 'Worker stopping')[0]).toMatchObject({ drainMs: 30_000 });
    worker.child.kill('SIGINT');
    expect(await worker.exited).toBe(1);
    expect(logged(worker, 'Second stop signal: exiting at once')).toHaveLength(1);
    expect(await jobState(db.sql, running)).toBe('active');
  });
});

describe('worker heartbeat', () => {
  it('is rewritten on every probe; a failed queue probe writes none and does not stop the worker', async () => {
    const db = await database();
    const heartbeat = join(await mkdtemp(join(tmpdir(), 'css-hb-')), 'heartbeat');
    const worker = await startWorker(db.url, { timings: { heartbeatEveryMs: 200 } }, heartbeat);
    const beats = new Set<string>();
    await until('two heartbeats', async () => {
      beats.add(await readFile(heartbeat, 'utf8').catch(() => ''));
      beats.delete('');
      return beats.size >= 2;
    });
    const healthy = runProgram('consumers/healthcheck.ts', { WORKER_HEARTBEAT_PATH: heartbeat });
    expect(await healthy.exited).toBe(0);

    // The queue's tables vanish (as for a database that lost them): every probe fails.
    await db.sql`alter schema pgboss rename to pgboss_away`;
    await until('a failed probe', () => logged(worker, 'Queue probe failed; heartbeat not written').length > 0);
    const frozen = await readFile(heartbeat, 'utf8');
    await until('two more failed probes', () => logged(worker, 'Queue probe failed; heartbeat not written').length > 2);
    expect(await readFile(heartbeat, 'utf8')).toBe(frozen);
    expect(worker.child.exitCode).toBeNull();

    await db.sql`alter schema pgboss_away rename to pgboss`;
    await until('the heartbeat to resume', async () => (await readFile(heartbeat, 'utf8')) !== frozen);
  });

  it('an idle worker that has run a job keeps writing it: every empty poll counts as a fetch', async () => {
    const db = await database();
    const heartbeat = join(await mkdtemp(join(tmpdir(), 'css-hb-')), 'heartbeat');
    // A 4 s fetch window instead of 30 s; pg-boss polls an idle queue every 2 s.
    const worker = await startWorker(db.url, { jobMs: 0, timings: { heartbeatEveryMs: 200, fetchWindowMs: 4_000 } }, heartbeat);
    await enqueue(db.sql);
    await until('the job to finish', () => logged(worker, 'Test job finished').length === 1);
    const finishedAt = Date.now();
    await until('twice the fetch window to pass', () => Date.now() - finishedAt > 8_500);
    // Before the fix the last fetch seen was the job's, so the file stopped moving one window after it.
    const written = Date.parse(await readFile(heartbeat, 'utf8'));
    expect(Date.now() - written).toBeLessThan(4_000);
  });

  it('a consumer inside a long job keeps it written although it does not fetch meanwhile', async () => {
    const db = await database();
    const heartbeat = join(await mkdtemp(join(tmpdir(), 'css-hb-')), 'heartbeat');
    const worker = await startWorker(db.url, { jobMs: 120_000, timings: { heartbeatEveryMs: 200, fetchWindowMs: 1_000 } }, heartbeat);
    await enqueue(db.sql);
    const missed = () => logged(worker, 'No consumer fetched or is inside a job within its time; heartbeat not written');
    await until('the job to start', () => logged(worker, 'Test job started').length === 1);
    // Before the job, an idle poll every 2 s can be older than this 1 s window: only misses from now on count.
    const missedBefore = missed().length;
    const startedAt = Date.now();
    await until('three fetch windows to pass', () => Date.now() - startedAt > 3_500);
    expect(Date.now() - Date.parse(await readFile(heartbeat, 'utf8'))).toBeLessThan(1_500);
    expect(missed()).toHaveLength(missedBefore);
  });
});
