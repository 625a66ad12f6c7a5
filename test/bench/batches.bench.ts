import { execSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { SecretBox } from '../../core/crypto/secret-box.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { issueBody, openStoredCopy, SAMPLES, samplePayload } from '../rig/credential-fixtures.ts';
import { testWorkerEnv } from '../rig/jobs.ts';
import { npmStartArgs } from '../rig/npm-start.ts';
import { freePort } from '../rig/postgres-server.ts';
import { TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';
import { callJson, CONNECTIONS, measure, median, recordRatio, startBenchStack } from './lib.ts';
import { printCpuBudget } from './cpu-budget.ts';
import { recordMachineCpu } from './machine-cpu.ts';
import { cpuSecondsOf } from './process-cpu.ts';
import { rssMbOf, sampleRssPeak } from './process-rss.ts';
import { cutProfile } from './profile-window.ts';
import { addStepsBetween, METRICS_TOKEN, printSteps, scrapeSteps, type StepTotals } from './step-metrics.ts';
import { STORAGE_API_KEY, VC_API_KEY } from './service-processes.ts';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * `npm run bench batches` (issue 15 §5, issue 34): 500-item batches of 0.7.0 DPPs issued by the worker
 * program as its own process, with the VC service and the storage service (local directory) as their own
 * processes and every credential stored encrypted (the default). Rows:
 * - one batch on one worker (BATCH_JOB_CONCURRENCY=1): items/s from the first claim (the job's start in
 *   pgboss.job) to settlement, read from the rows (the worker's start and its poll are not counted), after a
 *   100-item warm-up batch on the same fresh worker (its JIT warm-up, as the floors have theirs);
 * - four batches at once on one worker (BATCH_JOB_CONCURRENCY=4), also after the warm-up batch;
 * - with each, the worker's CPU per item (user + system from the warm-up's settlement to settlement, /proc): a load
 *   elsewhere on the machine moves it far less than items/s;
 * - floors measured in the same run, with the very bodies an item sends upstream, at 1 connection (one
 *   batch: its items go one at a time) and at 4 (four batches): the VC service alone, mint one revocation
 *   entry then sign (two requests per item, as issuance makes them); the storage upload alone (the
 *   enveloped credential, encrypted); and the chain of both one after another (1 ÷ the sum of their times
 *   per item at one connection), the ceiling of a batch whose items go one at a time;
 * - the single-issuance route, POST /credentials at CONNECTIONS connections (this process's web app);
 * - worker RSS sampled every 250 ms through BENCH_BATCH_MEMORY_RUNS (default 10) consecutive batches.
 * Targets (issue 34): ≥ 200 items/s for one batch, ≥ 600 for four, RSS < 256 MB. Each rate target comes with its CPU
 * budget (cpu-budget.ts): N cores ÷ the target rate against the machine CPU per item over the batch's measured
 * window (/proc/stat read every 100 ms, interpolated at the first claim and the settlement); one batch's also with
 * its latency budget, 1 ÷ 200 s per item against the floor chain's time per item (1 ÷ its rate at one connection).
 * Each batch row also prints its items' steps (the worker's own `css_step_seconds` read before and after the
 * batches, step-metrics.ts) beside the floors' time per item.
 * The worker starts as `npm run start:worker` starts it (package.json, with its node flags), so the
 * figures are those of the deployed program; the VC and storage services start as their npm scripts do.
 * BENCH_BATCH_ITEMS (default 500) shortens a run; BENCH_BATCH_MEMORY_ONLY=true runs only the memory
 * row (with its items/s); BENCH_BATCH_FLOORS=false skips the floors; BENCH_WORKER_NODE_FLAGS adds node
 * flags to the worker's (a flag given again wins: to try one out). A CPU profile of the worker, each run
 * cut to its measured window (profile-window.ts) and summarised in µs of worker CPU per item by profile-summary.ts:
 *   BENCH_BATCH_MEMORY_RUNS=1 BENCH_WORKER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/css-prof" npm run bench batches
 * (BENCH_PROFILE=<dir> is the same as those two flags.)
 */
const ITEMS = Number(process.env.BENCH_BATCH_ITEMS ?? 500);
const MEMORY_RUNS = Number(process.env.BENCH_BATCH_MEMORY_RUNS ?? 10);
const MEMORY_ONLY = process.env.BENCH_BATCH_MEMORY_ONLY === 'true';
const WITH_FLOORS = process.env.BENCH_BATCH_FLOORS !== 'false';
const EXTRA_WORKER_ARGS = [
  ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
  ...(process.env.BENCH_WORKER_NODE_FLAGS ?? process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean),
];
/** Where the worker writes its CPU profiles, when its flags ask for them. */
const PROFILE_DIR = EXTRA_WORKER_ARGS.includes('--cpu-prof')
  ? (EXTRA_WORKER_ARGS.findLast((a) => a.startsWith('--cpu-prof-dir='))?.slice('--cpu-prof-dir='.length) ?? process.cwd())
  : undefined;
const TARGET = { one: 200, four: 600, rssMb: 256 };
const load = () => execSync('uptime').toString().trim();
console.log(`Load on this machine before the run (uptime): ${load()}; ${availableParallelism()} CPUs`);

const scratch = mkdtempSync(join(tmpdir(), 'css-batch-bench-'));
const children: ChildProcess[] = [];

/** The node arguments of `npm run start:worker` with BENCH_WORKER_NODE_FLAGS after its own flags (so a flag given twice is the one tried). */
const workerArgs = (): string[] => {
  const start = npmStartArgs('consumers/worker.ts');
  return [...start.slice(0, -1), ...EXTRA_WORKER_ARGS, ...start.slice(-1)];
};

/** A program of this repository as its own process (inherits stderr, so a crash shows). */
const program = (args: string[], env: Record<string, string>) => {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout = (stdout + d).slice(-20_000)));
  children.push(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, exited, stdout: () => stdout };
};

const waitFor = async (what: string, check: () => Promise<boolean> | boolean, limitMs = 60_000) => {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const healthy = (url: string) => async () => {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
};

const server = await import('../rig/postgres-server.ts').then((m) => m.startPostgres(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL));
const admin = postgres(server.adminUrl, { max: 1, onnotice: () => {} });
const vcDatabase = `css_batch_bench_vc_${process.pid}`;
await admin.unsafe(`create database "${vcDatabase}"`);

const vcPort = await freePort();
const vcUrl = `http://127.0.0.1:${vcPort}`;
program(npmStartArgs('vc-service/server.ts'), { API_KEY: VC_API_KEY, KEY_ENCRYPTION_KEY: 'ab'.repeat(32), DATABASE_URL: server.urlFor(vcDatabase), PORT: String(vcPort), HOST: '127.0.0.1', PUBLIC_URL: vcUrl, LOG_LEVEL: 'error' });
const storagePort = await freePort();
const storageUrl = `http://127.0.0.1:${storagePort}`;
program(npmStartArgs('storage-service/server.ts'), {
  API_KEY: STORAGE_API_KEY,
  PORT: String(storagePort),
  HOST: '127.0.0.1',
  PUBLIC_URL: storageUrl,
  AVAILABLE_BUCKETS: 'documents,files',
  DEFAULT_BUCKET: 'documents',
  STORAGE_TYPE: 'local',
  LOCAL_DIRECTORY: join(scratch, 'objects'),
  LOG_LEVEL: 'error',
});
await waitFor('the VC service', healthy(`${vcUrl}/health-check`));
await waitFor('the storage service', healthy(`${storageUrl}/health-check`));

const systemEnv = {
  SYSTEM_VC_BASE_URL: vcUrl,
  SYSTEM_VC_API_KEY: VC_API_KEY,
  SYSTEM_STORAGE_BASE_URL: storageUrl,
  SYSTEM_STORAGE_API_KEY: STORAGE_API_KEY,
  SYSTEM_STORAGE_PUBLIC_BUCKET: 'documents',
  SYSTEM_STORAGE_PRIVATE_BUCKET: 'files',
};
const stack = await startBenchStack({ FETCH_ALLOW_PRIVATE_URLS: 'true', WORKER_JOB_TIMEOUT_SECONDS: '300' });
const box = new SecretBox(TEST_ENCRYPTION_KEY);
const point = async (id: string, config: object) =>
  stack.db.update(serviceInstances).set({ configEncrypted: await box.encryptJson(config) }).where(eq(serviceInstances.id, id));
await point(SYSTEM_SERVICE_IDS.VC, { baseUrl: vcUrl, apiKey: VC_API_KEY, apiVersion: '1.0.0' });
await point(SYSTEM_SERVICE_IDS.STORAGE, { baseUrl: storageUrl, apiKey: STORAGE_API_KEY, apiVersion: '4.0', publicBucket: 'documents', privateBucket: 'files' });

const token = await stack.token();
const { did } = await callJson(`${stack.api.url}/api/v1/dids`, { method: 'POST', token, body: { type: 'MANAGED', method: 'DID_WEB', alias: 'batch-bench' }, expect: 201 });
const dpp = () => issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did));
const fixture = await callJson(`${stack.api.url}/api/v1/credentials`, { method: 'POST', token, body: dpp(), expect: 201 });

/**
 * profile-summary.ts over a worker's profile cut to the measured window (first claim to last
 * settlement: start-up left out), in µs of worker CPU per item (its table says "request").
 */
const summariseProfile = (file: string, spawnedAt: number, window: Window, what: string) => {
  const cut = cutProfile(file, spawnedAt, window.first.getTime(), window.last.getTime());
  console.log(`\nWorker CPU profile, ${what}: ${cut.file} (${window.items} items in ${cut.seconds.toFixed(1)} s, first claim to settlement; µs per item)`);
  spawnSync(process.execPath, ['--import', 'tsx', join(here, 'profile-summary.ts'), cut.file, String(window.items / cut.seconds)], { stdio: 'inherit' });
};

// An item's upstream bodies (as credentials.bench.ts builds them): the credential as signed, the envelope as stored.
const vcHeaders = { 'content-type': 'application/json', authorization: `Bearer ${VC_API_KEY}` };
const storageHeaders = { 'content-type': 'application/json', 'x-api-key': STORAGE_API_KEY };
const fixtureRecord = await callJson(`${stack.api.url}/api/v1/credentials/${fixture.credentialId}`, { token });
const enveloped = await openStoredCopy(fixtureRecord.storageUri, fixtureRecord.decryptionKey);
const entry = await callJson(`${vcUrl}/agent/issueBitstringStatusList`, { method: 'POST', token: VC_API_KEY, body: { statusPurpose: 'revocation', bitstringStatusIssuer: did } });
const mint = { method: 'POST' as const, path: '/agent/issueBitstringStatusList', headers: vcHeaders, body: JSON.stringify({ statusPurpose: 'revocation', bitstringStatusIssuer: did }) };
const sign = { method: 'POST' as const, path: '/v2/credentials/issue', headers: vcHeaders, body: JSON.stringify({ credential: { ...dpp().credentialPayload, credentialStatus: entry }, options: { proofFormat: 'EnvelopingProofJose' } }) };

/**
 * The floors at `connections`: VC mint + sign (items/s = req/s ÷ 2), the storage upload, and their chain; with the
 * chain's machine CPU per item (the two floors' machine CPU per item added).
 */
const floorsAt = async (connections: number) => {
  const vc = await measure(`floor: VC service mint + sign, ${connections} connection(s)`, { url: vcUrl, requests: [mint, sign], connections });
  const storage = await measure(`floor: storage upload, encrypted, ${connections} connection(s)`, {
    url: `${storageUrl}/api/v4/private`,
    method: 'POST',
    headers: storageHeaders,
    body: JSON.stringify({ data: enveloped, bucket: 'files' }),
    connections,
  });
  const vcItems = vc.requestsPerSecond / 2;
  return {
    vc: vcItems,
    storage: storage.requestsPerSecond,
    chain: 1 / (1 / vcItems + 1 / storage.requestsPerSecond),
    chainMachineMicros: vc.machineCpuMicros! * 2 + storage.machineCpuMicros!,
  };
};

let workerRun = 0;
const startWorker = async (concurrency: number) => {
  workerRun += 1;
  const profileName = `worker-${process.pid}-${workerRun}-c${concurrency}.cpuprofile`;
  const nodeArgs = PROFILE_DIR ? [`--cpu-prof-name=${profileName}`] : [];
  const spawnedAt = Date.now();
  const metricsPort = await freePort();
  const worker = program([...workerArgs().slice(0, -1), ...nodeArgs, ...workerArgs().slice(-1)], {
    ...testWorkerEnv(stack.databaseUrl, {
      ...systemEnv,
      BATCH_JOB_CONCURRENCY: String(concurrency),
      WORKER_JOB_TIMEOUT_SECONDS: '300',
      LOG_LEVEL: 'info',
      WORKER_METRICS_PORT: String(metricsPort),
      METRICS_BEARER_TOKEN: METRICS_TOKEN,
    }),
  });
  await waitFor('the worker', () => worker.stdout().includes('Worker started') || worker.child.exitCode !== null);
  if (worker.child.exitCode !== null) throw new Error('the worker did not start');
  let cpuFrom = cpuSecondsOf(worker.child.pid!);
  return {
    /** From now on, the worker's CPU counts towards cpuMsPerItem (e.g. once its warm-up batch is settled). */
    countCpuFromNow: () => (cpuFrom = cpuSecondsOf(worker.child.pid!)),
    /** The worker's CPU (user + system, every thread) since it started or countCpuFromNow, per item, in ms: less moved by the machine's load than items/s. */
    cpuMsPerItem: (items: number) => ((cpuSecondsOf(worker.child.pid!) - cpuFrom) * 1000) / items,
    pid: worker.child.pid!,
    /** Its `/metrics` (the issuance steps of its items). */
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    /** Stops it; with a profile, prints where its CPU went per item in `window`. */
    stop: async (window?: Window) => {
      worker.child.kill('SIGTERM');
      if ((await worker.exited) !== 0) throw new Error('the worker did not stop cleanly');
      if (PROFILE_DIR && window) summariseProfile(join(PROFILE_DIR, profileName), spawnedAt, window, `worker run ${workerRun}, BATCH_JOB_CONCURRENCY=${concurrency}`);
    },
  };
};

const submitBatch = async (items = ITEMS) => {
  const body = { items: Array.from({ length: items }, () => dpp()) };
  const res = await fetch(`${stack.api.url}/api/v1/credentials/batches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`submit: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { batchId: string }).batchId;
};
const settled = async (ids: string[]) => {
  const rows = await stack.sql<{ state: string }[]>`select state from credential_batches where id in ${stack.sql(ids)}`;
  return rows.every((r) => r.state !== 'QUEUED' && r.state !== 'RUNNING');
};
interface Window {
  items: number;
  first: Date;
  last: Date;
}
/** The batches' measured window: their first claim (the first issue job's start, as pg-boss recorded it) to their last settlement; every item must be ISSUED. */
const windowOf = async (ids: string[]): Promise<Window> => {
  const [row] = await stack.sql<{ issued: number; first: Date; last: Date }[]>`
    select
      (select count(*)::int from credential_batch_items where batch_id in ${stack.sql(ids)} and state = 'ISSUED') as issued,
      (select min(started_on) from pgboss.job where name = 'credentials.issue-batch' and data->>'batchId' in ${stack.sql(ids)}) as first,
      (select max(settled_at) from credential_batches where id in ${stack.sql(ids)}) as last`;
  if (row!.issued !== ids.length * ITEMS) throw new Error(`only ${row!.issued} of ${ids.length * ITEMS} items issued`);
  return { items: row!.issued, first: row!.first, last: row!.last };
};
/** Items per second over the window. */
const rateOf = (w: Window) => w.items / ((w.last.getTime() - w.first.getTime()) / 1000);
/** Items of the batch a fresh worker issues before a measured run: its JIT warm-up, as the floors have theirs. */
const WARM_UP_ITEMS = 100;

const runBatches = async (count: number, concurrency: number) => {
  const worker = await startWorker(concurrency);
  const warmUp = await submitBatch(WARM_UP_ITEMS);
  await waitFor('the warm-up batch', () => settled([warmUp]), 600_000);
  worker.countCpuFromNow();
  const machine = recordMachineCpu();
  const stepsBefore = await scrapeSteps(worker.metricsUrl);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await submitBatch());
  await waitFor(`${count} batches`, () => settled(ids), 600_000);
  machine.stop();
  const steps: StepTotals = new Map();
  addStepsBetween(steps, stepsBefore, await scrapeSteps(worker.metricsUrl));
  const window = await windowOf(ids);
  const cpuMs = worker.cpuMsPerItem(window.items);
  await worker.stop(window);
  /** The whole machine's busy CPU per item over the window (every process), µs. */
  const machineMicros = (machine.secondsBetween(window.first.getTime(), window.last.getTime()) * 1e6) / window.items;
  return { rate: rateOf(window), cpuMs, machineMicros, steps };
};

/** Ten (BENCH_BATCH_MEMORY_RUNS) batches one after another on one worker: its RSS and each batch's items/s. */
const memoryRuns = async () => {
  const worker = await startWorker(1);
  const idleRss = Math.round(rssMbOf(worker.pid));
  const sampler = sampleRssPeak(worker.pid);
  const perBatch: number[] = [];
  const itemsPerSecond: number[] = [];
  const ids: string[] = [];
  for (let i = 0; i < MEMORY_RUNS; i++) {
    const id = await submitBatch();
    ids.push(id);
    await waitFor('a batch', () => settled([id]), 600_000);
    perBatch.push(Math.round(rssMbOf(worker.pid)));
    itemsPerSecond.push(Math.round(rateOf(await windowOf([id]))));
  }
  const peak = Math.max(sampler.stop(), ...perBatch);
  await worker.stop(await windowOf(ids));
  console.log(`worker start: node ${workerArgs().join(' ')}`);
  console.log(`worker RSS idle after start ${idleRss} MB; after each of ${MEMORY_RUNS} batches (MB): ${perBatch.join(', ')}; peak ${Math.round(peak)} MB (limit ${TARGET.rssMb})`);
  console.log(`items/s of each of those batches: ${itemsPerSecond.join(', ')}; median ${Math.round(median(itemsPerSecond))}`);
  console.log(`worker RSS peak ${Math.round(peak)} MB, limit ${TARGET.rssMb}: ${peak < TARGET.rssMb ? 'met' : 'NOT met'}`);
};

/**
 * One batch's items go one at a time, each through VC mint + sign then the storage upload: at TARGET.one items/s an
 * item has 1 ÷ TARGET.one s, of which the floors' chain at one connection takes 1 ÷ its rate; the rest is all the
 * worker, PostgreSQL and everything else may take (arithmetic on this run's figures).
 */
const latencyBudget = (rate: number, chainRate: number) => {
  const budgetMs = 1000 / TARGET.one;
  const chainMs = 1000 / chainRate;
  const left = budgetMs - chainMs;
  const verdict =
    left > 0
      ? `leaving ${left.toFixed(2)} ms per item for the worker, PostgreSQL and everything else`
      : `leaving nothing: the chain alone is ${(-left).toFixed(2)} ms over, so one batch cannot reach ${TARGET.one} items/s at these floor times`;
  console.log(
    `Latency budget, one batch (items one at a time) at ${TARGET.one} items/s: 1 ÷ ${TARGET.one}/s = ${budgetMs.toFixed(2)} ms per item; ` +
      `the floors' chain (VC mint + sign then storage upload, 1 connection) takes 1 ÷ ${Math.round(chainRate)}/s = ${chainMs.toFixed(2)} ms, ${verdict}; ` +
      `the batch took 1 ÷ ${Math.round(rate)}/s = ${(1000 / rate).toFixed(2)} ms per item`,
  );
};

try {
  if (MEMORY_ONLY) {
    await memoryRuns();
  } else {
    const { rate: one, cpuMs: oneCpu, machineMicros: oneMachine, steps: oneSteps } = await runBatches(1, 1);
    const floorsOne = WITH_FLOORS ? await floorsAt(1) : undefined;
    const single = await measure('POST /credentials (0.7.0 DPP, encrypted)', {
      url: `${stack.api.url}/api/v1/credentials`,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(dpp()),
    });
    const { rate: four, cpuMs: fourCpu, machineMicros: fourMachine, steps: fourSteps } = await runBatches(4, 4);
    const floorsFour = WITH_FLOORS ? await floorsAt(4) : undefined;

    console.log(`\nBatch issuance, ${ITEMS}-item batches of 0.7.0 DPPs, encrypted, worker, VC and storage services as their own processes`);
    const floorRows = (floors: Awaited<ReturnType<typeof floorsAt>> | undefined, connections: number) =>
      floors
        ? [
            { run: `  floor: VC mint + sign, ${connections} connection(s)`, 'items/s': Math.round(floors.vc), target: '' },
            { run: `  floor: storage upload, ${connections} connection(s)`, 'items/s': Math.round(floors.storage), target: '' },
            { run: `  floor: VC mint + sign then storage upload, one after another`, 'items/s': Math.round(floors.chain), target: '' },
          ]
        : [];
    console.table([
      { run: `one batch, BATCH_JOB_CONCURRENCY=1`, 'items/s': Math.round(one), target: TARGET.one, 'worker CPU ms/item': oneCpu.toFixed(1), 'machine CPU ms/item': (oneMachine / 1000).toFixed(1) },
      ...floorRows(floorsOne, 1),
      { run: `four batches, BATCH_JOB_CONCURRENCY=4`, 'items/s': Math.round(four), target: TARGET.four, 'worker CPU ms/item': fourCpu.toFixed(1), 'machine CPU ms/item': (fourMachine / 1000).toFixed(1) },
      ...floorRows(floorsFour, 4),
      { run: `single issuance POST /credentials, ${CONNECTIONS} connections`, 'items/s': single.requestsPerSecond, target: '' },
    ]);
    const ratio = (measured: string, value: number, reference: string, floor: number, target: number) =>
      recordRatio({ measured, reference, ratio: value / floor, low: value / floor, high: value / floor, rounds: 1, detail: `${Math.round(value)} vs ${Math.round(floor)} items/s (target ${target}/s)` });
    for (const [what, value, floors, connections, target, workerCpuMs, machineMicros, steps] of [
      ['one batch', one, floorsOne, 1, TARGET.one, oneCpu, oneMachine, oneSteps],
      ['four batches', four, floorsFour, 4, TARGET.four, fourCpu, fourMachine, fourSteps],
    ] as const) {
      if (floors) {
        ratio(`${what}, items/s`, value, `floor: VC mint + sign, ${connections} connection(s)`, floors.vc, target);
        ratio(`${what}, items/s`, value, `floor: storage upload, ${connections} connection(s)`, floors.storage, target);
        ratio(`${what}, items/s`, value, `floor: VC mint + sign then storage, ${connections} connection(s)`, floors.chain, target);
      }
      ratio(`${what}, items/s`, value, `POST /credentials at ${CONNECTIONS} connections`, single.requestsPerSecond, target);
      console.log(`${what}: ${Math.round(value)} items/s, target ${target}: ${value >= target ? 'met' : 'NOT met'}`);
      printCpuBudget({
        target: `${what} at ${target} items/s`,
        perSecond: target,
        operation: 'item',
        machineMicros,
        measuredPerSecond: value,
        beside: {
          "of it the worker's (its warm-up batch settled to settlement)": workerCpuMs * 1000,
          [`the floors' chain's machine CPU (${connections} connection(s))`]: floors?.chainMachineMicros,
        },
      });
      // Per item of a batch: the items of one batch go one at a time, so its steps follow each other.
      const floorTimes = floors
        ? `held against the floors at ${connections} connection(s): VC mint + sign ${((1000 * connections) / floors.vc).toFixed(2)} ms, storage upload ${((1000 * connections) / floors.storage).toFixed(2)} ms per item`
        : 'no floors measured';
      // An item's validation runs while the item before it is issued (process-batch.ts): not in its own sequence.
      printSteps(`a batch item (${what})`, 'issuance', steps, `${((1000 * connections) / value).toFixed(2)} ms per item of a batch at the rate reached; ${floorTimes}`, ['validate']);
    }
    if (floorsOne) latencyBudget(one, floorsOne.chain);
    await memoryRuns();
  }
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await stack.close();
  await admin.unsafe(`drop database if exists "${vcDatabase}" with (force)`);
  await admin.end();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`Load on this machine after the run (uptime): ${load()}`);
