import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/rig/postgres-server.ts';
import { runProgram, type Program } from '../test/rig/program.ts';
import { readWorkerCount } from '../core/service-kit/worker-supervisor.ts';

const API_KEY = 'workers-test-key';

type StorageProgram = Program & { url: string };

/** The storage service as its own program (`storage-service/server.ts`) on a local directory. */
const startProgram = async (dir: string, env: Record<string, string>, port?: number): Promise<StorageProgram> => {
  const listenOn = port ?? (await freePort());
  const program = runProgram('storage-service/server.ts', {
    API_KEY,
    PORT: String(listenOn),
    HOST: '127.0.0.1',
    LOCAL_DIRECTORY: dir,
    AVAILABLE_BUCKETS: 'documents',
    DEFAULT_BUCKET: 'documents',
    ...env,
  });
  return { ...program, url: `http://127.0.0.1:${listenOn}` };
};

/** Its JSON log lines so far. */
const logsOf = (program: Program): Record<string, unknown>[] =>
  program.output().stdout.split('\n').filter((line) => line.startsWith('{') && line.endsWith('}')).map((line) => JSON.parse(line));

const eventually = async <T>(check: () => T | undefined | Promise<T | undefined>, what: string, ms = 20_000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
};

const listeningPids = (program: Program) =>
  logsOf(program).filter((line) => line.message === 'Storage service listening').map((line) => line.pid as number);

const upload = (url: string, body: unknown) =>
  fetch(`${url}/api/v4/public`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify(body),
  });

describe('storage service with WORKERS=2 (cluster of processes on one port)', () => {
  let dir: string;
  let program: StorageProgram;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-storage-workers-'));
    program = await startProgram(dir, { WORKERS: '2' });
    await eventually(() => listeningPids(program).length === 2 || undefined, 'two workers');
    await eventually(async () => (await fetch(`${program.url}/health-check`).catch(() => undefined))?.ok || undefined, 'health');
  }, 60_000);

  afterAll(async () => {
    if (program.child.exitCode === null) {
      program.child.kill('SIGKILL');
      await program.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('two worker processes serve, each its own pid', () => {
    const pids = listeningPids(program);
    expect(new Set(pids).size).toBe(2);
    expect(pids).not.toContain(program.child.pid);
  });

  it('one id uploaded at once over many connections: exactly one 201, the rest 409, one file', async () => {
    const id = crypto.randomUUID();
    const statuses = await Promise.all(
      Array.from({ length: 24 }, (_, i) => upload(program.url, { id, data: { attempt: i } }).then(async (r) => (await r.text(), r.status))),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(23);
    expect((await readdir(join(dir, 'documents'))).filter((name) => name.startsWith(id))).toEqual([`${id}.json`]);
  });

  it('a worker that dies is replaced and the service keeps answering', async () => {
    const [victim] = listeningPids(program);
    process.kill(victim!, 'SIGKILL');
    await eventually(() => listeningPids(program).length === 3 || undefined, 'a replacement worker');
    const stored = await upload(program.url, { data: { after: 'restart' } });
    expect(stored.status).toBe(201);
    const { uri } = (await stored.json()) as { uri: string };
    expect(await (await fetch(uri.replace('http://localhost', 'http://127.0.0.1'))).json()).toEqual({ after: 'restart' });
    expect(logsOf(program).some((line) => line.message === 'Storage worker exited; starting another' && line.pid === victim)).toBe(true);
  });

  it('SIGINT to a worker alone (as Ctrl+C sends it to the whole group) neither stops nor replaces it', async () => {
    const pids = listeningPids(program).slice(1);
    process.kill(pids[0]!, 'SIGINT');
    await new Promise((done) => setTimeout(done, 300));
    expect(() => process.kill(pids[0]!, 0)).not.toThrow();
    expect(listeningPids(program)).toHaveLength(3);
  });

  it('SIGTERM stops the workers and the primary with exit code 0', async () => {
    const pids = listeningPids(program).slice(1);
    program.child.kill('SIGTERM');
    expect(await program.exited).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  }, 20_000);
});

describe('WORKERS', () => {
  it('defaults to the CPUs available; must be a whole number of at least 1', () => {
    expect(readWorkerCount({})).toBe(availableParallelism());
    expect(readWorkerCount({ WORKERS: '3' })).toBe(3);
    expect(() => readWorkerCount({ WORKERS: 'two' })).toThrow(/WORKERS/);
    expect(() => readWorkerCount({ WORKERS: '0' })).toThrow(/WORKERS must be at least 1/);
  });
});

describe('storage service workers that cannot start', () => {
  it('a port already in use stops the service with exit code 1 instead of restarting forever', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((done) => blocker.listen(port, '127.0.0.1', () => done()));
    const dir = await mkdtemp(join(tmpdir(), 'css-storage-workers-'));
    try {
      const program = await startProgram(dir, { WORKERS: '2' }, port);
      expect(await program.exited).toBe(1);
      expect(logsOf(program).some((line) => line.message === 'Storage worker failed to start; stopping')).toBe(true);
    } finally {
      blocker.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('bad settings stop the service before any worker starts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'css-storage-workers-'));
    try {
      const program = await startProgram(dir, { WORKERS: '0' });
      expect(await program.exited).toBe(1);
      expect(program.output().stderr).toContain('WORKERS must be at least 1');
      expect(listeningPids(program)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
