import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../rig/postgres-server.ts';
import { untilHealthy } from '../rig/program.ts';
import { measure, pairedRounds, report, type Contender } from './lib.ts';

/**
 * The storage service as it is deployed (its own program, local backend) against a floor measured in
 * the same run: a bare `node:http` server doing the same file write and read (storage-floor.ts, one
 * process, so compare it with WORKERS=1; the default runs one worker per CPU). When
 * BENCH_UPSTREAM_STORAGE_URL names the upstream service started side by side (recipe in
 * ../shared/tools/upstream-storage/), it is measured against the same floor too.
 * Upstream settings: BENCH_UPSTREAM_STORAGE_API_KEY (test-api-key-e2e), _BUCKET (documents), _VERSION (3.0.0).
 *
 * Floors: uploads of 1 KB JSON (public: parse, serialise, hash, write; private: the same plus the
 * envelope encryption) and the 1 KB read; a 1 MB read (the same size of file). The 1 MB multipart
 * upload is printed without a floor (the floor would need its own multipart parser).
 * Uploads create one file each, so they measure the disk too: compare runs on a quiet disk.
 */
const API_KEY = 'bench-storage-key';
const BUCKET = 'documents';
const data = { payload: 'x'.repeat(1000) };
const jsonUpload = (bucket: string) => JSON.stringify({ bucket, data });
const boundary = 'css-bench-boundary';
const file = '%PDF-1.7 '.padEnd(1024 * 1024, 'x');
const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="doc.pdf"\r\nContent-Type: application/pdf\r\n\r\n${file}\r\n--${boundary}--\r\n`;

interface Target {
  name: string;
  /** Upload URLs by visibility. */
  upload: (visibility: 'public' | 'private') => string;
  apiKey: string;
  bucket: string;
  /** A stored 1 KB JSON object's URL. */
  readUrl?: string;
  stop(): Promise<void>;
}

const directories: string[] = [];
const settleDisk = () => spawnSync('sync', { stdio: 'ignore' });

/** A program of ours on a fresh directory and port: the storage service or the floor. */
const startProgram = async (name: string, script: string, env: Record<string, string>, uploadAt: (url: string) => Target['upload']) => {
  const dir = await mkdtemp(join(tmpdir(), 'css-storage-bench-'));
  directories.push(dir); // removed when the bench ends: deleting many files keeps the disk busy
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, API_KEY, PORT: String(port), HOST: '127.0.0.1', LOCAL_DIRECTORY: dir, AVAILABLE_BUCKETS: BUCKET, DEFAULT_BUCKET: BUCKET, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  };
  const failure = await untilHealthy(child, `${url}/health-check`, 20);
  if (failure) throw new Error(`${url} did not start: ${failure}`);
  const target: Target = { name, upload: uploadAt(url), apiKey: API_KEY, bucket: BUCKET, stop };
  return target;
};

const headersOf = (target: Target) => ({ 'content-type': 'application/json', 'x-api-key': target.apiKey });
const prepare = async (target: Target) => {
  const response = await fetch(target.upload('public'), { method: 'POST', headers: headersOf(target), body: jsonUpload(target.bucket) });
  if (response.status !== 201) throw new Error(`${target.name}: upload gave ${response.status} ${await response.text()}`);
  target.readUrl = ((await response.json()) as { uri: string }).uri;
  await measure(`${target.name} warm-up`, { url: target.upload('public'), method: 'POST', headers: headersOf(target), body: jsonUpload(target.bucket), seconds: 2 });
  return target;
};

const targets: Target[] = [];
try {
  settleDisk();
  const service = (workers?: number) =>
    startProgram(`storage service, WORKERS=${workers ?? `default (${availableParallelism()})`}`, 'storage-service/server.ts', workers ? { WORKERS: String(workers) } : {}, (url: string) => (v: string) => `${url}/api/v4/${v}`);
  const floor = await prepare(await startProgram('floor (bare node:http)', 'test/bench/storage-floor.ts', {}, (url: string) => (v: string) => `${url}/${v}`));
  targets.push(floor);
  targets.push(await prepare(await service(1)));
  targets.push(await prepare(await service()));
  const upstreamUrl = process.env.BENCH_UPSTREAM_STORAGE_URL?.replace(/\/$/, '');
  if (upstreamUrl) {
    const version = process.env.BENCH_UPSTREAM_STORAGE_VERSION ?? '3.0.0';
    targets.push(
      await prepare({
        name: 'upstream storage service',
        upload: (v) => `${upstreamUrl}/api/${version}/${v}`,
        apiKey: process.env.BENCH_UPSTREAM_STORAGE_API_KEY ?? 'test-api-key-e2e',
        bucket: process.env.BENCH_UPSTREAM_STORAGE_BUCKET ?? BUCKET,
        stop: async () => {},
      }),
    );
  } else {
    console.log('No BENCH_UPSTREAM_STORAGE_URL: the upstream service is not compared in this run.');
  }

  const compare = (label: string, loadOf: (target: Target) => Contender['load']) =>
    pairedRounds(
      `Storage ${label}: against the floor`,
      { name: `floor ${label}`, load: loadOf(floor) },
      targets.slice(1).map((target) => ({ name: `${target.name}: ${label}`, load: loadOf(target) })),
    );
  const upload = (visibility: 'public' | 'private') => (target: Target) => ({
    url: target.upload(visibility), method: 'POST' as const, headers: headersOf(target), body: jsonUpload(target.bucket),
  });
  await compare('upload 1 KB JSON public', upload('public'));
  await compare('upload 1 KB JSON private', upload('private'));
  await compare('read 1 KB JSON', (target) => ({ url: target.readUrl! }));

  // 1 MB files through the default service. The read's floor serves a file of the same size from the
  // floor's directory; the upload has no floor (it would need its own multipart parser).
  const deployed = targets[2]!;
  const multipartHeaders = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': API_KEY };
  const large = await fetch(deployed.upload('public'), { method: 'POST', headers: multipartHeaders, body: multipart });
  if (large.status !== 201) throw new Error(`${deployed.name}: 1 MB upload gave ${large.status} ${await large.text()}`);
  const largeUri = ((await large.json()) as { uri: string }).uri;
  const floorLarge = await fetch(floor.upload('public'), { method: 'POST', headers: headersOf(floor), body: JSON.stringify({ bucket: floor.bucket, data: file }) });
  if (floorLarge.status !== 201) throw new Error(`${floor.name}: 1 MB upload gave ${floorLarge.status}`);
  const floorLargeUri = ((await floorLarge.json()) as { uri: string }).uri;
  await pairedRounds('Storage read 1 MB file: against the floor', { name: 'floor read 1 MB file', load: { url: floorLargeUri } }, [
    { name: `${deployed.name}: read 1 MB file`, load: { url: largeUri } },
  ]);
  report(`Storage service, WORKERS default, 1 MB file upload (no floor: it would need its own multipart parser)`, [
    await measure('upload 1 MB file public', { url: deployed.upload('public'), method: 'POST', headers: multipartHeaders, body: multipart }),
  ]);
} finally {
  for (const target of targets) await target.stop();
  for (const dir of directories) await rm(dir, { recursive: true, force: true });
  settleDisk();
}
