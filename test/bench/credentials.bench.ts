import { execSync, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeEnveloped, issueBody, openStoredCopy, SAMPLES, samplePayload } from '../rig/credential-fixtures.ts';
import { printCpuBudget } from './cpu-budget.ts';
import { callJson, CONNECTIONS, DURATION, medianCpuOf, pairedMeasurements, recordPairedCpuRatio, recordPairedRatio, startBenchStack, WARMUP_SECONDS, type Contender, type PairedResults } from './lib.ts';
import { sampleRssPeak } from './process-rss.ts';
import { percent } from './summary.ts';
import { cutProfile } from './profile-window.ts';
import { METRICS_TOKEN, printSteps, recordingSteps, type StepTotals } from './step-metrics.ts';
import { startStorageProcess, startVcProcess, startWebProcess, STORAGE_API_KEY, STORAGE_BUCKETS, VC_API_KEY, type ServiceProcess } from './service-processes.ts';

/**
 * Issue 14 §5: `POST /api/v1/credentials` of a UNTP 0.7.0 DPP (the published sample, adjusted for
 * issuer and dates; one status purpose, revocation; stored encrypted; no Idempotency-Key) and the
 * public `POST /api/v1/credentials/verify` of one issued credential, through the web process as
 * deployed (`functions/server.ts`, its own process) with the VC service (WORKERS default) and the
 * storage service (local backend, WORKERS default) as their own processes, 10 connections from
 * autocannon in another process. Contexts and schemas come from the bundled copies (the bench
 * machines cannot reach the UNTP or W3C hosts; the first miss falls back and is cached).
 * Issuance is measured twice: the same body every time (after the first, the JSON-LD verdict comes
 * from the shape cache, jsonld-verdict-cache.ts) and a payload shape never seen before every time
 * (the full expansion runs on each request).
 *
 * Floors measured in the same paired rounds, with the very bodies the route sends upstream:
 * - issuance: the VC service alone — mint one revocation entry, then sign the same credential
 *   (two requests per issuance, as the route makes them); the storage upload alone (the same
 *   enveloped credential, encrypted, into the private bucket).
 * - verification: the VC service's verify route alone (proof and status, the body the route sends);
 *   the storage read alone (the same encrypted envelope).
 * The route calls these one after another, so its ceiling is below the slower floor; the ratios say
 * how close it gets. (autocannon keeps one host per run, so no run chains the two services.)
 * Targets (issue 34), judged on this run's medians: issuance ≥ 50% of the VC mint + sign floor's rate with p99
 * < 100 ms at 10 connections; issuance of a new payload shape each time ≥ 25% of that floor; verification ≥ 50%
 * of the VC verify floor; the web process's RSS < 256 MB through the rounds (sampled every 250 ms). Each rate
 * target comes with its CPU budget (cpu-budget.ts): the machine CPU per operation the target leaves on this
 * machine's cores beside the route's, its web process's and the floor's, measured in the same rounds. Each route
 * row also prints where its time went, step by step: the web process's own `css_step_seconds` (step-metrics.ts)
 * read around each of the row's runs, beside the floors' p50 latencies.
 *
 * BENCH_CREDENTIALS=issue or =verify runs one part; BENCH_FLOORS=false measures the routes alone;
 * BENCH_NEW_SHAPES=false leaves out the new-shape issuance row;
 * BENCH_WEB_NODE_FLAGS adds node flags to the web process; BENCH_BASELINE_DIR (another checkout, e.g. a
 * `git worktree` of an earlier commit with a link to node_modules) adds its web process, on the same
 * database and services, as a contender of each route row in the same rounds (before/after). A CPU profile of issuance, both rows (written
 * when the bench stops the web process; summarise it with profile-summary.ts):
 *   BENCH_CREDENTIALS=issue BENCH_FLOORS=false BENCH_ROUNDS=1 \
 *   BENCH_WEB_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/css-prof" npm run bench credentials
 * Verification's profile is cut to its measured rounds (start-up and issuance left out) and summarised
 * here, in µs of web CPU per verification (requests counted as each run's req/s × warm-up and run seconds):
 *   BENCH_CREDENTIALS=verify BENCH_FLOORS=false BENCH_ROUNDS=1 \
 *   BENCH_WEB_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof-verify" npm run bench credentials
 */
/** Issue 34's targets: shares of the VC floor's rate, issuance's p99 in ms, the web process's RSS in MB. */
const TARGET = { issue: 0.5, issueP99Ms: 100, newShape: 0.25, verify: 0.5, webRssMb: 256 };
const parts = (process.env.BENCH_CREDENTIALS ?? 'issue,verify').split(',');
const withFloors = process.env.BENCH_FLOORS !== 'false';
/** BENCH_NEW_SHAPES=false leaves out the new-shape issuance row (e.g. for a profile of the same-body row alone). */
const withNewShapes = process.env.BENCH_NEW_SHAPES !== 'false';
/** The route's rows, then the floors unless BENCH_FLOORS=false. */
const runsOf = (routes: Contender[], floors: Contender[]) => (withFloors ? [...routes, ...floors] : routes);
const recordAgainst = (results: PairedResults, route: string, floors: string[]) => {
  if (withFloors) for (const floor of floors) recordPairedRatio(results, route, floor);
};

const vcHeaders = { 'content-type': 'application/json', authorization: `Bearer ${VC_API_KEY}` };
const storageHeaders = { 'content-type': 'application/json', 'x-api-key': STORAGE_API_KEY };

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
/**
 * A route's rate target as a share of its VC floor, judged on the median of the rounds' paired ratios (the
 * summary's row), then its CPU budget: `operation` is one of the route's (issuance, verification).
 */
const floorTargetLine = (label: string, results: PairedResults, route: string, floor: string, share: number, operation: string) => {
  const rate = results.medianOf(route, 'requestsPerSecond');
  if (!withFloors) return console.log(`${label}: ${rate}/s; target ≥ ${percent(share)} of the VC floor: cannot be judged (BENCH_FLOORS=false, no floor measured)`);
  const row = recordPairedRatio(results, route, floor, share);
  console.log(`${label}: ${percent(row.ratio)} of the VC floor's rate (${floor}: ${row.detail}; rounds ${percent(row.low)}–${percent(row.high)}; target ≥ ${percent(share)}: ${verdict(row.ratio >= share)})`);
  printCpuBudget({
    target: `${label.toLowerCase()} at ${percent(share)} of the VC floor`,
    perSecond: share * results.medianOf(floor, 'requestsPerSecond'),
    operation,
    machineMicros: medianCpuOf(results, route, 'machine')!,
    measuredPerSecond: rate,
    beside: { "of it the web process's": medianCpuOf(results, route, 'server'), "the VC floor's machine CPU": medianCpuOf(results, floor, 'machine') },
  });
};
/** Runs rounds while sampling the web process's RSS; prints the peak against the target. */
const withWebRss = async <T>(pid: number, rounds: string, run: () => Promise<T>): Promise<T> => {
  const sampler = sampleRssPeak(pid);
  const result = await run();
  const peak = Math.round(sampler.stop());
  console.log(`Web process RSS peak through the ${rounds} rounds: ${peak} MB (target < ${TARGET.webRssMb} MB: ${verdict(peak < TARGET.webRssMb)})`);
  return result;
};

console.log(`Load on this machine before the run (uptime): ${execSync('uptime').toString().trim()}; ${availableParallelism()} CPUs`);
const stack = await startBenchStack();
const processes: ServiceProcess[] = [];
/** The verification rounds, when the web process writes a CPU profile (summarised once it has stopped). */
let verifyProfileWindow: { from: number; to: number; requests: number } | undefined;
let webProfile: { dir: string; spawnedAt: number } | undefined;
try {
  const vc = await startVcProcess(stack.databaseUrl);
  processes.push(vc);
  const storage = await startStorageProcess();
  processes.push(storage);
  const nodeFlags = (process.env.BENCH_WEB_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const profileDir = nodeFlags.find((flag) => flag.startsWith('--cpu-prof-dir='))?.slice('--cpu-prof-dir='.length);
  const webSpawnedAt = Date.now();
  const web = await startWebProcess({
    databaseUrl: stack.databaseUrl,
    oidcIssuer: stack.issuer,
    vcUrl: vc.url,
    storageUrl: storage.url,
    // One address sends every verification: the per-client limit and the concurrency gate are lifted.
    env: { VERIFY_RATE_LIMIT_PER_MINUTE: '1000000', VERIFY_MAX_CONCURRENCY: '10000', METRICS_BEARER_TOKEN: METRICS_TOKEN },
    nodeFlags,
  });
  processes.push(web);
  if (profileDir) webProfile = { dir: profileDir, spawnedAt: webSpawnedAt };
  const baselineDir = process.env.BENCH_BASELINE_DIR;
  const baseline = baselineDir
    ? await startWebProcess({
        databaseUrl: stack.databaseUrl,
        oidcIssuer: stack.issuer,
        vcUrl: vc.url,
        storageUrl: storage.url,
        env: { VERIFY_RATE_LIMIT_PER_MINUTE: '1000000', VERIFY_MAX_CONCURRENCY: '10000' },
        cwd: baselineDir,
      })
    : undefined;
  if (baseline) processes.push(baseline);
  /** Each route row, and the same row against the baseline's web process when there is one. */
  const withBaseline = (routes: Contender[]) =>
    baseline
      ? routes.flatMap((route) => [
          route,
          { ...route, around: undefined, name: `baseline: ${route.name}`, load: { ...route.load, url: route.load.url.replace(web.url, baseline.url), serverPid: baseline.pid } },
        ])
      : routes;
  const recordBaseline = (results: PairedResults, routes: Contender[]) => {
    if (!baseline) return;
    for (const route of routes) {
      recordPairedRatio(results, route.name, `baseline: ${route.name}`);
      recordPairedCpuRatio(results, route.name, `baseline: ${route.name}`);
    }
  };

  const token = await stack.token();
  const api = `${web.url}/api/v1`;
  const { did } = await callJson(`${api}/dids`, { method: 'POST', token, expect: 201, body: { type: 'MANAGED', method: 'DID_WEB', alias: 'bench-issuer' } });
  const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did);
  const body = JSON.stringify(issueBody('DigitalProductPassport', '0.7.0', payload, { statusPurposes: ['revocation'], storageOptions: { encrypt: true } }));
  const issued = await callJson(`${api}/credentials`, { method: 'POST', token, expect: 201, body: JSON.parse(body) });
  const record = await callJson(`${api}/credentials/${issued.credentialId}`, { token });
  const enveloped = await openStoredCopy(record.storageUri, record.decryptionKey);
  if (decodeEnveloped(enveloped).issuer === undefined) throw new Error('the stored copy is not the issued credential');

  // The route's upstream bodies: the credential as signed (our payload with its minted entry), the envelope as stored.
  const entry = await callJson(`${vc.url}/agent/issueBitstringStatusList`, { method: 'POST', token: VC_API_KEY, body: { statusPurpose: 'revocation', bitstringStatusIssuer: did } });
  const mint = { method: 'POST' as const, path: '/agent/issueBitstringStatusList', headers: vcHeaders, body: JSON.stringify({ statusPurpose: 'revocation', bitstringStatusIssuer: did }) };
  const sign = { method: 'POST' as const, path: '/v2/credentials/issue', headers: vcHeaders, body: JSON.stringify({ credential: { ...payload, credentialStatus: entry }, options: { proofFormat: 'EnvelopingProofJose' } }) };
  const upload = { method: 'POST' as const, path: '/api/v4/private', headers: storageHeaders, body: JSON.stringify({ data: enveloped, bucket: STORAGE_BUCKETS.private }) };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  if (parts.includes('issue')) {
    const route = `POST /credentials, 0.7.0 DPP, encrypted, 1 status purpose`;
    const vcFloor = 'floor: VC service mint + sign (2 requests per issuance)';
    const storageFloor = 'floor: storage upload, encrypted';
    const newShapes = `${route}, a new payload shape each time`;
    // Every request a shape no earlier one had (jsonld-verdict-cache.ts): the subject gets a member of a
    // new name each time (autocannon's unique id; the 0.7.0 schema and @vocab accept it), so expansion runs every time.
    const shaped = JSON.parse(body);
    shaped.credentialPayload.credentialSubject['note[<id>]'] = 'a member of a new name';
    const newShapeBody = JSON.stringify(shaped);
    // Each row's steps, from the web process's own metrics read around each of its runs.
    const steps: StepTotals = new Map();
    const newShapeSteps: StepTotals = new Map();
    const routes: Contender[] = [
      { name: route, load: { url: `${api}/credentials`, method: 'POST', headers: auth, body, serverPid: web.pid }, around: recordingSteps(web.url, steps) },
      ...(withNewShapes
        ? [{ name: newShapes, load: { url: `${api}/credentials`, method: 'POST' as const, headers: auth, body: newShapeBody, idReplacement: true, serverPid: web.pid }, around: recordingSteps(web.url, newShapeSteps) }]
        : []),
    ];
    const contenders = runsOf(withBaseline(routes), [
      { name: vcFloor, load: { url: vc.url, requests: [mint, sign] }, requestsPerOperation: 2 },
      { name: storageFloor, load: { url: `${storage.url}${upload.path}`, method: 'POST', headers: upload.headers, body: upload.body } },
    ]);
    const results = await withWebRss(web.pid, 'issuance', () =>
      pairedMeasurements(`Issuance at ${CONNECTIONS} connections: the route and its floors (req/s of floors = issuances/s)`, contenders),
    );
    const p99 = results.medianOf(route, 'p99');
    console.log(`Issuance p99 at ${CONNECTIONS} connections: ${p99} ms (target < ${TARGET.issueP99Ms} ms: ${verdict(p99 < TARGET.issueP99Ms)})`);
    floorTargetLine('Issuance', results, route, vcFloor, TARGET.issue, 'issuance');
    recordAgainst(results, route, [storageFloor]);
    if (withNewShapes) floorTargetLine('Issuance, a new shape each time', results, newShapes, vcFloor, TARGET.newShape, 'issuance');
    recordBaseline(results, routes);
    const against = withFloors
      ? `held against the floors at ${CONNECTIONS} connections: VC mint + sign p50 2 × ${results.medianOf(vcFloor, 'p50')} ms, storage upload p50 ${results.medianOf(storageFloor, 'p50')} ms`
      : 'no floors measured';
    printSteps('issuance', 'issuance', steps, `the route's p50 ${results.medianOf(route, 'p50')} ms; ${against}`);
    if (withNewShapes) printSteps('issuance, a new shape each time', 'issuance', newShapeSteps, `the route's p50 ${results.medianOf(newShapes, 'p50')} ms; ${against}`);
  }

  if (parts.includes('verify')) {
    const verifyBody = JSON.stringify({ uri: record.storageUri, decryptionKey: record.decryptionKey, digestMultibase: record.digestMultibase });
    const check = await callJson(`${api}/credentials/verify`, { method: 'POST', body: JSON.parse(verifyBody) });
    if (check.verified !== true) throw new Error(`the bench credential does not verify: ${JSON.stringify(check)}`);
    const vcVerify = { method: 'POST' as const, path: '/agent/routeVerificationCredential', headers: vcHeaders, body: JSON.stringify({ credential: enveloped, fetchRemoteContexts: true, policies: { credentialStatus: true } }) };
    const route = 'POST /credentials/verify, encrypted, digest given';
    const vcFloor = 'floor: VC service verify (proof + status)';
    const storageFloor = 'floor: storage read of the envelope';
    const steps: StepTotals = new Map();
    const routes: Contender[] = [
      {
        name: route,
        load: { url: `${api}/credentials/verify`, method: 'POST', headers: { 'content-type': 'application/json' }, body: verifyBody, serverPid: web.pid },
        around: recordingSteps(web.url, steps),
      },
    ];
    const contenders = runsOf(withBaseline(routes), [
      { name: vcFloor, load: { url: `${vc.url}${vcVerify.path}`, method: 'POST', headers: vcHeaders, body: vcVerify.body } },
      { name: storageFloor, load: { url: record.storageUri } },
    ]);
    const from = Date.now();
    const results = await withWebRss(web.pid, 'verification', () =>
      pairedMeasurements(`Verification at ${CONNECTIONS} connections: the route and its floors (req/s of floors = verifications/s)`, contenders),
    );
    if (profileDir) {
      const requests = results.runs.get(route)!.reduce((sum, run) => sum + run.requestsPerSecond * (WARMUP_SECONDS + DURATION), 0);
      verifyProfileWindow = { from, to: Date.now(), requests };
    }
    floorTargetLine('Verification', results, route, vcFloor, TARGET.verify, 'verification');
    recordAgainst(results, route, [storageFloor]);
    recordBaseline(results, routes);
    const against = withFloors
      ? `held against the floors at ${CONNECTIONS} connections: VC verify p50 ${results.medianOf(vcFloor, 'p50')} ms, storage read p50 ${results.medianOf(storageFloor, 'p50')} ms`
      : 'no floors measured';
    printSteps('verification', 'verification', steps, `the route's p50 ${results.medianOf(route, 'p50')} ms; ${against}`);
  }
} finally {
  for (const program of processes.reverse()) await program.stop();
  await stack.close();
}
if (webProfile && verifyProfileWindow) {
  // The newest profile in the directory is the web process's, written as it stopped.
  const newest = readdirSync(webProfile.dir)
    .filter((name) => name.endsWith('.cpuprofile') && !name.endsWith('.window.cpuprofile'))
    .map((name) => join(webProfile!.dir, name))
    .sort((x, y) => statSync(y).mtimeMs - statSync(x).mtimeMs)[0];
  if (newest) {
    const cut = cutProfile(newest, webProfile.spawnedAt, verifyProfileWindow.from, verifyProfileWindow.to);
    console.log(`\nWeb CPU profile of verification: ${cut.file} (about ${Math.round(verifyProfileWindow.requests)} verifications in ${cut.seconds.toFixed(1)} s; µs per verification)`);
    const summary = join(dirname(fileURLToPath(import.meta.url)), 'profile-summary.ts');
    spawnSync(process.execPath, ['--import', 'tsx', summary, cut.file, String(verifyProfileWindow.requests / cut.seconds)], { stdio: 'inherit' });
  }
}
console.log(`Load on this machine after the run (uptime): ${execSync('uptime').toString().trim()}`);
