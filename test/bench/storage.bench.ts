import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../rig/postgres-server.ts';
import { measure, report, type LoadResult } from './lib.ts';

/**
 * The storage service as it is deployed: its own program (`storage-service/server.ts`, one worker
 * process per CPU by default, then a single process), local backend, the load generator on the same
 * machine, 10 connections. Reference: the upstream storage service 3.1.0 measured that way served
 * about 3,700 public and 2,900 private 1 KB uploads/s and 4,700 reads/s; the target is twice that.
 *
 * Uploads create one file each, so their rows measure the disk too: on a machine whose disk is rate
 * limited (a VM's token bucket), a run right after heavy disk use shows it. Compare runs on a quiet disk.
 */
const REFERENCE: Record<string, number> = {
  'upload 1 KB JSON public': 3700,
  'upload 1 KB JSON private': 2900,
  'read 1 KB JSON': 4700,
};
const API_KEY = 'bench-storage-key';
const json = JSON.stringify({ data: { payload: 'x'.repeat(1000) } });
const jsonHeaders = { 'content-type': 'application/json', 'x-api-key': API_KEY };
const boundary = 'css-bench-boundary';
// ASCII content so the body can cross into autocannon's worker thread as a string.
const file = '%PDF-1.7 '.padEnd(1024 * 1024, 'x');
const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="doc.pdf"\r\nContent-Type: application/pdf\r\n\r\n${file}\r\n--${boundary}--\r\n`;
const multipartHeaders = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': API_KEY };

const directories: string[] = [];

/** `storage-service/server.ts` as its own program on a fresh directory; WORKERS unset means its default. */
const startService = async (workers?: number) => {
  const dir = await mkdtemp(join(tmpdir(), 'css-storage-bench-'));
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'storage-service/server.ts'], {
    env: {
      ...process.env,
      API_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOCAL_DIRECTORY: dir,
      AVAILABLE_BUCKETS: 'documents',
      DEFAULT_BUCKET: 'documents',
      LOG_LEVEL: 'error',
      ...(workers ? { WORKERS: String(workers) } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  };
  // Removed when the bench ends, not between services: deleting tens of thousands of files keeps the disk busy.
  directories.push(dir);
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/health-check`)).ok) break;
    } catch {
      if (i > 200) {
        await stop();
        throw new Error('the storage service did not start');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const upload = async (body: string, headers: Record<string, string>) =>
    (await (await fetch(`${url}/api/v4/public`, { method: 'POST', headers, body })).json()) as { uri: string };
  // Warm every worker's code paths before anything is measured.
  await measure('warm-up', { url: `${url}/api/v4/public`, method: 'POST', headers: jsonHeaders, body: json, seconds: 2 });
  return { url, stop, small: await upload(json, jsonHeaders), large: await upload(multipart, multipartHeaders) };
};

const jsonRows = async (url: string, readUri: string, label = '') => [
  await measure(`upload 1 KB JSON public${label}`, { url: `${url}/api/v4/public`, method: 'POST', headers: jsonHeaders, body: json }),
  await measure(`upload 1 KB JSON private${label}`, { url: `${url}/api/v4/private`, method: 'POST', headers: jsonHeaders, body: json }),
  await measure(`read 1 KB JSON${label}`, { url: readUri }),
];

/** Measures one service (`WORKERS` as given, else its default) and stops it, whatever happens. */
const measured = async (workers: number | undefined, rowsOf: (service: Awaited<ReturnType<typeof startService>>) => Promise<LoadResult[]>) => {
  // The 1 MB rows leave a gigabyte or more to write back: each service starts on a settled disk.
  settleDisk();
  const service = await startService(workers);
  try {
    return await rowsOf(service);
  } finally {
    await service.stop();
  }
};

/** Flushes and commits what earlier work left on the disk (`sync` waits for the journal). */
const settleDisk = () => spawnSync('sync', { stdio: 'ignore' });

const rows: LoadResult[] = [];
try {
  rows.push(
    ...(await measured(undefined, async ({ url, small, large }) => [
      ...(await jsonRows(url, small.uri)),
      await measure('upload 1 MB file public', { url: `${url}/api/v4/public`, method: 'POST', headers: multipartHeaders, body: multipart }),
      await measure('read 1 MB file', { url: large.uri }),
    ])),
  );
  rows.push(...(await measured(1, ({ url, small }) => jsonRows(url, small.uri, ', WORKERS=1'))));
} finally {
  for (const dir of directories) await rm(dir, { recursive: true, force: true });
  // The deletes are committed before the bench ends, not while whatever runs next is measured.
  settleDisk();
}
report(
  `Storage service (own program, WORKERS default = ${availableParallelism()} CPUs, then 1), local backend, 10 connections (reference: upstream 3.1.0 measured the same way)`,
  rows,
  (row) => REFERENCE[row.name.replace(', WORKERS=1', '')],
);
