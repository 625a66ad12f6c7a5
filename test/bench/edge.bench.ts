import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';
import { median, ROUNDS, recordRatio, startBenchStack, startServerProcess } from './lib.ts';
import { childPidsNamed, cpuSecondsOf } from './process-cpu.ts';

/**
 * Edge functions in workerd (Miniflare, as test/edge runs them).
 * 1. Cold start: a fresh workerd with the registrars bundle against one with a trivial worker, in
 *    alternating paired rounds: time until ready, and until the first response (a 401, no database).
 *    Target: the registrars bundle < 300 ms above the trivial worker.
 * 2. Warm authenticated GET /api/v1/registrars/{id} (one PostgreSQL client per request) against its
 *    floor (edge-floor.ts: the same per-request client and SQL in a bare worker), in alternating paired
 *    rounds; then once through a Hyperdrive binding. Locally Miniflare's Hyperdrive connects straight to
 *    the database (no pool), so the pooled gain only shows on Cloudflare.
 * 3. Three groups at the edge beside the Node function (the whole web app, `npm run start:web`'s way, in a
 *    process of its own) in the same run: warm sequential requests to registrars (GET by id), the library
 *    (list) and the verify page (GET /verify), paired rounds, order alternating. Latency per request, and CPU
 *    per request of the serving process (workerd, which also runs Miniflare's router, against the Node web
 *    process), read from /proc around each side's requests.
 */
const WARM_REQUESTS = Number(process.env.BENCH_EDGE_WARM_REQUESTS ?? 100);
/** Warm requests per paired round of each side of the edge against the Node function. */
const VERSUS_NODE_PER_ROUND = Number(process.env.BENCH_EDGE_VERSUS_NODE_PER_ROUND ?? 100);
/** Warm requests per paired round of the app against its floor. */
const WARM_PER_ROUND = Number(process.env.BENCH_EDGE_WARM_PER_ROUND ?? 40);
const base = 'http://edge.test';
const dir = await mkdtemp(join(tmpdir(), 'css-edge-bench-'));
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const common = { modulesRoot: dir, compatibilityDate: '2026-07-01', compatibilityFlags: ['nodejs_compat'] };
/** The bundle handed over as one module, so Miniflare does not parse it in Node to find its imports. */
const moduleOf = async (path: string) => ({ modules: [{ type: 'ESModule' as const, path, contents: await readFile(path) }] });

const trivial = join(dir, 'trivial.js');
await writeFile(trivial, "export default { fetch: () => new Response('ok') };\n");
const registrars = join(dir, 'registrars.js');
await bundleEdgeEntry('functions/registrars/edge.ts', registrars);
const floorScript = join(dir, 'floor.js');
await bundleEdgeEntry('test/bench/edge-floor.ts', floorScript);

/** A fresh workerd with one worker: ms until ready and until its first response. */
const coldStart = async (scriptPath: string, bindings: Record<string, string>) => {
  const started = performance.now();
  // Reading the file is part of the start (both workers pay it).
  const mf = new Miniflare({ ...common, ...(await moduleOf(scriptPath)), bindings });
  try {
    await mf.ready;
    const ready = performance.now() - started;
    const response = await mf.dispatchFetch(`${base}/api/v1/registrars`);
    await response.arrayBuffer();
    return { ready, firstResponse: performance.now() - started };
  } finally {
    await mf.dispose();
  }
};

// The database and OIDC provider of the bench stack (its Node app stays idle here).
const stack = await startBenchStack();
const bindings = {
  RI_DATABASE_URL: stack.databaseUrl,
  RI_APP_URL: base,
  DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  AUTH_OIDC_ISSUER: stack.issuer,
  AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
  AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
  AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
  LOG_LEVEL: 'error',
};

/**
 * Miniflare's Hyperdrive binding insists on a password in its connection string; a server with trust
 * authentication (the usual test server) ignores the one given here.
 */
const withPassword = (url: string) => {
  const parsed = new URL(url);
  if (!parsed.password) parsed.password = 'unused-with-trust-auth';
  return parsed.href;
};

/** `count` sequential GETs of `url` on a warm worker: each one's ms. */
const sequentialTimes = async (mf: Miniflare, url: string, headers: Record<string, string>, count: number) => {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const response = await mf.dispatchFetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
    times.push(performance.now() - started);
  }
  return times;
};

/** A warm registrars worker (direct URL or Hyperdrive) with one registrar of the bench's tenant. */
const warmRegistrars = async (hyperdrive: boolean) => {
  const mf = new Miniflare({
    ...common,
    ...(await moduleOf(registrars)),
    bindings: hyperdrive ? { ...bindings, RI_DATABASE_URL: 'postgres://unused.invalid/none' } : bindings,
    ...(hyperdrive ? { hyperdrives: { HYPERDRIVE: withPassword(stack.databaseUrl) } } : {}),
  });
  const token = await stack.token();
  const headers = { authorization: `Bearer ${token}` };
  const created = await mf.dispatchFetch(`${base}/api/v1/registrars`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Edge bench', namespace: `edge-${hyperdrive ? 'pooled' : 'direct'}`, url: 'https://edge.example.com' }),
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  await sequentialTimes(mf, `${base}/api/v1/registrars/${id}`, headers, 10);
  return { mf, id, headers };
};

/** `count` sequential requests: each one's ms, and the serving process's CPU µs per request. */
const timedRun = async (pid: number, count: number, send: () => Promise<{ status: number; arrayBuffer(): Promise<ArrayBuffer> }>) => {
  const cpuBefore = cpuSecondsOf(pid);
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const response = await send();
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${response.status} from pid ${pid}`);
    times.push(performance.now() - started);
  }
  return { times, cpuMicros: ((cpuSecondsOf(pid) - cpuBefore) * 1e6) / count };
};

/** Section 3: registrars, library and the verify page at the edge against the Node web process. */
const versusNode = async () => {
  const groups = [
    { group: 'registrars', route: '*/api/v1/registrars*' },
    { group: 'library', route: '*/api/v1/library*' },
    { group: 'verify-page', route: '*/verify*' },
  ];
  for (const { group } of groups) if (group !== 'registrars') await bundleEdgeEntry(`functions/${group}/edge.ts`, join(dir, `${group}.js`));
  const node = await startServerProcess({ role: 'app', databaseUrl: stack.databaseUrl, settingsEnv: stack.settingsEnv });
  const edge = new Miniflare({
    workers: await Promise.all(groups.map(async ({ group, route }) => ({ ...common, name: group, ...(await moduleOf(join(dir, `${group}.js`))), bindings, routes: [route] }))),
  });
  try {
    await edge.ready;
    const [workerd, ...others] = childPidsNamed('workerd');
    if (!workerd || others.length > 0) throw new Error(`expected one workerd child process, found ${[workerd, ...others].filter(Boolean).length}`);
    const headers = { authorization: `Bearer ${await stack.token()}` };
    const created = await fetch(`${node.url}/api/v1/registrars`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Edge against Node', namespace: 'edge-vs-node', url: 'https://edge.example.com' }),
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    const paths: Record<string, string> = { registrars: `/api/v1/registrars/${id}`, library: '/api/v1/library?limit=20', 'verify-page': '/verify' };
    const rows = [];
    for (const { group } of groups) {
      const path = paths[group]!;
      const onNode = () => timedRun(node.pid!, VERSUS_NODE_PER_ROUND, () => fetch(`${node.url}${path}`, { headers }));
      const onEdge = () => timedRun(workerd, VERSUS_NODE_PER_ROUND, () => edge.dispatchFetch(`${base}${path}`, { headers }));
      await onNode();
      await onEdge(); // warm-up of both
      const nodeRounds: Awaited<ReturnType<typeof timedRun>>[] = [];
      const edgeRounds: Awaited<ReturnType<typeof timedRun>>[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        if (round % 2 === 0) {
          nodeRounds.push(await onNode());
          edgeRounds.push(await onEdge());
        } else {
          edgeRounds.push(await onEdge());
          nodeRounds.push(await onNode());
        }
      }
      const latency = nodeRounds.map((run, i) => median(run.times) / median(edgeRounds[i]!.times));
      const cpu = nodeRounds.map((run, i) => run.cpuMicros / edgeRounds[i]!.cpuMicros);
      const medianMs = (runs: typeof nodeRounds) => median(runs.flatMap((r) => r.times));
      const medianCpu = (runs: typeof nodeRounds) => Math.round(median(runs.map((r) => r.cpuMicros)));
      rows.push(
        { group, side: 'Node web process', 'median ms': medianMs(nodeRounds).toFixed(1), 'p90 ms': percentile(nodeRounds.flatMap((r) => r.times), 0.9).toFixed(1), 'CPU µs/req': medianCpu(nodeRounds) },
        { group, side: 'edge (workerd)', 'median ms': medianMs(edgeRounds).toFixed(1), 'p90 ms': percentile(edgeRounds.flatMap((r) => r.times), 0.9).toFixed(1), 'CPU µs/req': medianCpu(edgeRounds) },
      );
      recordRatio({
        measured: `edge warm GET ${path.replace(id, '{id}')} (latency)`,
        reference: 'Node web process, same request',
        ratio: median(latency),
        low: Math.min(...latency),
        high: Math.max(...latency),
        rounds: ROUNDS,
        detail: `${medianMs(edgeRounds).toFixed(1)} vs ${medianMs(nodeRounds).toFixed(1)} ms median`,
      });
      recordRatio({
        measured: `edge warm GET ${path.replace(id, '{id}')} (CPU per request)`,
        reference: 'Node web process, same request',
        ratio: median(cpu),
        low: Math.min(...cpu),
        high: Math.max(...cpu),
        rounds: ROUNDS,
        detail: `${medianCpu(edgeRounds)} vs ${medianCpu(nodeRounds)} µs CPU/req`,
      });
    }
    console.log(`\nThree groups at the edge beside the Node web process, ${ROUNDS} paired rounds of ${VERSUS_NODE_PER_ROUND} sequential requests, order alternating`);
    console.table(rows);
  } finally {
    await edge.dispose();
    await node.close();
  }
};

try {
  const trivialRuns: { ready: number; firstResponse: number }[] = [];
  const registrarRuns: { ready: number; firstResponse: number }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      trivialRuns.push(await coldStart(trivial, {}));
      registrarRuns.push(await coldStart(registrars, bindings));
    } else {
      registrarRuns.push(await coldStart(registrars, bindings));
      trivialRuns.push(await coldStart(trivial, {}));
    }
  }
  const above = registrarRuns.map((run, i) => run.firstResponse - trivialRuns[i]!.firstResponse);
  console.log(`\nEdge cold start in workerd (Miniflare), ${ROUNDS} paired rounds, order alternating`);
  console.table([
    { worker: 'trivial', 'ready ms (median)': Math.round(median(trivialRuns.map((r) => r.ready))), 'first response ms (median)': Math.round(median(trivialRuns.map((r) => r.firstResponse))) },
    { worker: 'registrars', 'ready ms (median)': Math.round(median(registrarRuns.map((r) => r.ready))), 'first response ms (median)': Math.round(median(registrarRuns.map((r) => r.firstResponse))) },
  ]);
  console.log(`registrars above trivial, per round: ${above.map(Math.round).join(' ')} ms; median ${Math.round(median(above))} ms (target < 300 ms)`);
  const ratios = registrarRuns.map((run, i) => trivialRuns[i]!.firstResponse / run.firstResponse);
  recordRatio({
    measured: 'edge cold start to first response, registrars',
    reference: 'trivial worker',
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    rounds: ROUNDS,
    detail: `+${Math.round(median(above))} ms above trivial (target < 300 ms)`,
  });

  // Warm GET by id: the app (direct URL) against its floor, paired rounds, order alternating.
  const app = await warmRegistrars(false);
  const tenantId = (await stack.db.query.users.findFirst())!.tenantId;
  const floor = new Miniflare({ ...common, ...(await moduleOf(floorScript)), bindings: { RI_DATABASE_URL: stack.databaseUrl, FLOOR_TENANT_ID: tenantId } });
  try {
    const floorUrl = `${base}/registrars/${app.id}`;
    await sequentialTimes(floor, floorUrl, {}, 10);
    const appRounds: number[][] = [];
    const floorRounds: number[][] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const runApp = async () => appRounds.push(await sequentialTimes(app.mf, `${base}/api/v1/registrars/${app.id}`, app.headers, WARM_PER_ROUND));
      const runFloor = async () => floorRounds.push(await sequentialTimes(floor, floorUrl, {}, WARM_PER_ROUND));
      if (round % 2 === 0) await runFloor().then(runApp);
      else await runApp().then(runFloor);
    }
    const all = (rounds: number[][]) => rounds.flat();
    // Latency: the floor's median time ÷ the app's, within each round (1 = as fast as the floor).
    const ratios = appRounds.map((times, i) => median(floorRounds[i]!) / median(times));
    console.log(`\nWarm GET /api/v1/registrars/{id} in workerd (direct URL), ${ROUNDS} paired rounds of ${WARM_PER_ROUND} sequential requests`);
    console.table([
      { worker: 'floor (same client and SQL)', 'median ms': median(all(floorRounds)).toFixed(1), 'p90 ms': percentile(all(floorRounds), 0.9).toFixed(1) },
      { worker: 'registrars, authenticated', 'median ms': median(all(appRounds)).toFixed(1), 'p90 ms': percentile(all(appRounds), 0.9).toFixed(1) },
    ]);
    recordRatio({
      measured: 'edge warm GET /registrars/{id}, cached token (latency)',
      reference: 'bare worker, same client and SQL',
      ratio: median(ratios),
      low: Math.min(...ratios),
      high: Math.max(...ratios),
      rounds: ROUNDS,
      detail: `${median(all(appRounds)).toFixed(1)} vs ${median(all(floorRounds)).toFixed(1)} ms median`,
    });
  } finally {
    await app.mf.dispose();
    await floor.dispose();
  }

  // The same GET through a Hyperdrive binding (no floor of its own: read it against the direct rows above).
  const pooled = await warmRegistrars(true);
  try {
    const times = await sequentialTimes(pooled.mf, `${base}/api/v1/registrars/${pooled.id}`, pooled.headers, WARM_REQUESTS);
    console.log(`\nWarm GET through a Hyperdrive binding (local: no pool), ${WARM_REQUESTS} sequential requests: median ${median(times).toFixed(1)} ms, p90 ${percentile(times, 0.9).toFixed(1)} ms`);
  } finally {
    await pooled.mf.dispose();
  }

  await versusNode();
} finally {
  await stack.close();
  await rm(dir, { recursive: true, force: true });
}
