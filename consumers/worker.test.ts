import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { createEmptyDatabase, createTestDatabase } from '../test/rig/databases.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';
import { checkHeartbeat } from './healthcheck.ts';
import { isWorkerAlive } from './heartbeat.ts';
import { expirySweepCron, QUEUE_NAMES } from '../core/jobs/queues.ts';

const run = (script: string, env: Record<string, string>) => {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
};

/**
 * Waits until the worker writes its heartbeat (readiness) or exits: no fixed window of its own, the test's
 * timeout bounds it (a loaded 2-core machine may take tens of seconds to compile and migrate).
 */
const untilHeartbeat = async (file: string, worker: ReturnType<typeof run>): Promise<string | undefined> => {
  for (;;) {
    const written = (await readFile(file, 'utf8').catch(() => '')) || undefined;
    if (written || worker.child.exitCode !== null) return written;
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Starting a worker twice (and migrating once) under load: readiness waits, bounded here. */
const TWO_STARTS_MS = 120_000;
const ONE_START_MS = 60_000;

const base = {
  RI_APP_URL: 'http://localhost:3003',
  RI_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
  DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
};

describe('worker start and stop', () => {
  it('migrates an empty database, creates its queues, writes a heartbeat, and drains on SIGTERM', async () => {
    const database = await createEmptyDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'css-worker-'));
    const heartbeat = join(dir, 'heartbeat');
    const worker = run('consumers/worker.ts', { ...base, RI_DATABASE_URL: database.url, WORKER_HEARTBEAT_PATH: heartbeat });
    try {
      expect(await untilHeartbeat(heartbeat, worker), worker.stderr()).toBeDefined();
      expect(await checkHeartbeat(heartbeat, 30)).toBeUndefined();
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      const queues = (await sql<{ name: string }[]>`select name from pgboss.queue order by name`).filter(
        (q) => !q.name.startsWith('__pgboss'),
      );
      const tables = await sql<{ n: number }[]>`select count(*)::int as n from information_schema.tables where table_name = 'registrars'`;
      await sql.end();
      expect(queues.map((q) => q.name)).toEqual(Object.values(QUEUE_NAMES).sort());
      expect(tables[0]!.n).toBe(1);
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);

      // A second start over the same queues (a restart) must come up too: policies are fixed at creation.
      await writeFile(heartbeat, '');
      const again = run('consumers/worker.ts', { ...base, RI_DATABASE_URL: database.url, WORKER_HEARTBEAT_PATH: heartbeat });
      try {
        expect(await untilHeartbeat(heartbeat, again), again.stderr()).toBeDefined();
        again.child.kill('SIGTERM');
        expect(await again.exited).toBe(0);
      } finally {
        again.child.kill('SIGKILL');
      }
    } finally {
      worker.child.kill('SIGKILL');
      await database.drop();
    }
  }, TWO_STARTS_MS);
});

describe('clean shutdown', () => {
  it('a database going away while the worker stops (Ctrl+C of npm start) logs no error-level line', async () => {
    const database = await createTestDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'css-worker-'));
    const heartbeat = join(dir, 'heartbeat');
    const worker = run('consumers/worker.ts', { ...base, LOG_LEVEL: 'info', RI_DATABASE_URL: database.url, WORKER_HEARTBEAT_PATH: heartbeat });
    let stdout = '';
    worker.child.stdout!.on('data', (d) => (stdout += d));
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      // Readiness: the start line, or an exit (then the assertion says why); the test's timeout bounds it.
      while (!stdout.includes('Worker started') && worker.child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      expect(stdout, worker.stderr()).toContain('Worker started');
      // What a stopping PostgreSQL does to its clients: FATAL 57P01 "terminating connection due to administrator command".
      const cut = await sql<{ n: number }[]>`
        select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and application_name = 'css-worker'`;
      expect(cut[0]!.n).toBeGreaterThan(0);
      worker.child.kill('SIGINT');
      expect(await worker.exited).toBe(0);
      const levels = stdout.trim().split('\n').map((line) => (JSON.parse(line) as { level: string }).level);
      expect(levels).not.toContain('error');
      expect(worker.stderr()).toBe('');
    } finally {
      worker.child.kill('SIGKILL');
      await sql.end();
      await database.drop();
    }
  }, ONE_START_MS);
});

describe('heartbeat and healthcheck', () => {
  it('healthcheck is unhealthy for a missing, stale or future-dated file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'css-hc-'));
    const file = join(dir, 'hb');
    expect(await checkHeartbeat(file, 30)).toContain('missing');
    await writeFile(file, new Date(Date.now() - 31_000).toISOString());
    expect(await checkHeartbeat(file, 30)).toContain('old');
    await writeFile(file, new Date(Date.now() + 60_000).toISOString());
    expect(await checkHeartbeat(file, 30)).toContain('future');
    await writeFile(file, new Date().toISOString());
    expect(await checkHeartbeat(file, 30)).toBeUndefined();
    const cli = run('consumers/healthcheck.ts', { WORKER_HEARTBEAT_PATH: join(dir, 'none') });
    expect(await cli.exited).toBe(1);
    const ok = run('consumers/healthcheck.ts', { WORKER_HEARTBEAT_PATH: file });
    expect(await ok.exited).toBe(0);
  });

  it('the healthcheck reads the age limit as a number (fractions allowed) and is unhealthy on an invalid one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'css-hc-'));
    const file = join(dir, 'hb');
    await writeFile(file, new Date(Date.now() - 2_000).toISOString());
    const fresh = run('consumers/healthcheck.ts', { WORKER_HEARTBEAT_PATH: file, WORKER_HEARTBEAT_MAX_AGE_SECONDS: '30.5' });
    expect(await fresh.exited).toBe(0);
    const tooOld = run('consumers/healthcheck.ts', { WORKER_HEARTBEAT_PATH: file, WORKER_HEARTBEAT_MAX_AGE_SECONDS: '1.5' });
    expect(await tooOld.exited).toBe(1);
    const invalid = run('consumers/healthcheck.ts', { WORKER_HEARTBEAT_PATH: file, WORKER_HEARTBEAT_MAX_AGE_SECONDS: 'soon' });
    expect(await invalid.exited).toBe(1);
    expect(invalid.stderr()).toBe('unhealthy: WORKER_HEARTBEAT_MAX_AGE_SECONDS must be a positive number, got "soon"\n');
  });

  it('a worker is alive when a consumer fetched within 30 s or a job is within its timeout + 60 s', () => {
    const now = 1_000_000_000;
    expect(isWorkerAlive(undefined, 300, now)).toBe(true);
    expect(isWorkerAlive({ lastFetchedOn: now - 29_000, jobStartedOn: null }, 300, now)).toBe(true);
    expect(isWorkerAlive({ lastFetchedOn: now - 31_000, jobStartedOn: null }, 300, now)).toBe(false);
    expect(isWorkerAlive({ lastFetchedOn: now - 400_000, jobStartedOn: now - 359_000 }, 300, now)).toBe(true);
    expect(isWorkerAlive({ lastFetchedOn: now - 400_000, jobStartedOn: now - 361_000 }, 300, now)).toBe(false);
  });

  it('expiry sweep cron follows BATCH_EXPIRY_SWEEP_MINUTES', () => {
    expect(expirySweepCron(15)).toBe('*/15 * * * *');
    expect(expirySweepCron(60)).toBe('0 */1 * * *');
    expect(expirySweepCron(180)).toBe('0 */3 * * *');
  });
});
