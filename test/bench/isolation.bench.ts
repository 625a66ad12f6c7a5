import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueBody, SAMPLES, samplePayload } from '../rig/credential-fixtures.ts';
import { callJson, DURATION, measure, recordRatio, startBenchStack, type LoadOptions, type LoadResult } from './lib.ts';
import { cpuSecondsOf } from './process-cpu.ts';
import { startStorageProcess, startVcProcess, startWebProcess, type ServiceProcess } from './service-processes.ts';

/**
 * Issue 29 §1: no tenant slows another. Tenant B reads `GET /api/v1/dids?limit=20` (2 connections)
 * alone (its quiet baseline, measured in this run, before and after) and while tenant A sends, one
 * kind at a time: 500-item batch submissions (about 2.8 MB each), 5 MB credential payloads (refused
 * with 413 from their Content-Length), 1,000-item bulk product creates, a verify flood, and issuance
 * at full rate. Every load comes from autocannon in its own process; the web process, the VC
 * service and the storage service run as deployed, each in its own process. Target: B's p99 within
 * 100 ms of its baseline for every kind. A's own answers (413, 429 TENANT_BUSY) are counted, not
 * failures.
 *
 * The machine may be shared (other benches, test runs): the baseline is measured in the same run for
 * that reason; compare each row with it, not with another run. The web process also measures its own
 * event-loop delay over each of B's windows (event-loop-probe.ts): how long any request held the
 * thread, less at the mercy of the machine's load than B's latency. BENCH_PROFILE=<dir> writes one
 * CPU profile of the web process per window (`window-<n>.cpuprofile`, n printed beside each kind;
 * read with profile-summary.ts).
 */
const TARGET_P99_MARGIN_MS = 100;
const PROFILE_DIR = process.env.BENCH_PROFILE;
const PROBE = fileURLToPath(new URL('./event-loop-probe.ts', import.meta.url));
const probeFile = join(tmpdir(), `css-isolation-loop-${process.pid}.json`);
interface LoopDelay {
  window: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
  heldP99: number;
  heldMax: number;
}

console.log(`Load on this machine before the run (uptime): ${execSync('uptime').toString().trim()}; ${availableParallelism()} CPUs`);
const stack = await startBenchStack();
const processes: ServiceProcess[] = [];
try {
  const vc = await startVcProcess(stack.databaseUrl);
  processes.push(vc);
  const storage = await startStorageProcess();
  processes.push(storage);
  const web = await startWebProcess({
    databaseUrl: stack.databaseUrl,
    oidcIssuer: stack.issuer,
    vcUrl: vc.url,
    storageUrl: storage.url,
    // One address sends every verification: the per-client limit and the concurrency gate are lifted.
    env: {
      VERIFY_RATE_LIMIT_PER_MINUTE: '1000000',
      VERIFY_MAX_CONCURRENCY: '10000',
      MAX_BATCH_REQUEST_BODY_BYTES: String(8 * 1024 * 1024),
      EVENT_LOOP_PROBE_FILE: probeFile,
      ...(PROFILE_DIR ? { EVENT_LOOP_PROBE_PROFILE_DIR: PROFILE_DIR } : {}),
    },
    nodeFlags: ['--import', PROBE],
  });
  processes.push(web);
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  /** Ends the web process's current event-loop window (and profile) and returns its figures. */
  const endWindow = async (): Promise<LoopDelay> => {
    rmSync(probeFile, { force: true });
    process.kill(web.pid, 'SIGUSR2');
    for (let waited = 0; !existsSync(probeFile); waited += 50) {
      if (waited > 30_000) throw new Error('The web process did not report its event-loop delay');
      await new Promise((r) => setTimeout(r, 50));
    }
    return JSON.parse(readFileSync(probeFile, 'utf8')) as LoopDelay;
  };
  const api = `${web.url}/api/v1`;
  const tokenA = await stack.token();
  const tokenB = await stack.otherTenantToken();
  const { did } = await callJson(`${api}/dids`, { method: 'POST', token: tokenA, expect: 201, body: { type: 'MANAGED', method: 'DID_WEB', alias: 'isolation-a' } });
  await callJson(`${api}/dids`, { method: 'POST', token: tokenB, expect: 201, body: { type: 'MANAGED', method: 'DID_WEB', alias: 'isolation-b' } });

  const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did);
  const issuance = issueBody('DigitalProductPassport', '0.7.0', payload, { statusPurposes: ['revocation'], storageOptions: { encrypt: true } });
  const issued = await callJson(`${api}/credentials`, { method: 'POST', token: tokenA, expect: 201, body: issuance });
  const record = await callJson(`${api}/credentials/${issued.credentialId}`, { token: tokenA });
  const json = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

  const loadsOfA: Record<string, LoadOptions> = {
    '500-item batch submissions': {
      url: `${api}/credentials/batches`,
      method: 'POST',
      headers: { ...json(tokenA), 'idempotency-key': 'isolation-[<id>]' },
      body: JSON.stringify({ items: Array.from({ length: 500 }, () => issuance) }),
      idReplacement: true,
      connections: 2,
    },
    '5 MB credential payloads': {
      url: `${api}/credentials`,
      method: 'POST',
      headers: json(tokenA),
      body: JSON.stringify(issueBody('DigitalProductPassport', '0.7.0', { ...payload, name: 'x'.repeat(5_000_000) })),
      connections: 2,
    },
    '1,000-item bulk product creates': {
      url: `${api}/products`,
      method: 'POST',
      headers: json(tokenA),
      body: JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ name: `isolation product ${i}`, level: 'MODEL' }))),
      connections: 2,
    },
    'verify flood': {
      url: `${api}/credentials/verify`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri: record.storageUri, decryptionKey: record.decryptionKey, digestMultibase: record.digestMultibase }),
      connections: 10,
    },
    'issuance at full rate': { url: `${api}/credentials`, method: 'POST', headers: json(tokenA), body: JSON.stringify(issuance), connections: 10 },
  };

  const readOfB: LoadOptions = { url: `${api}/dids?limit=20`, headers: { authorization: `Bearer ${tokenB}` }, connections: 2, warmupSeconds: 1, seconds: DURATION };
  /**
   * A's requests still running after its load generator stopped (a 500-item submission takes seconds)
   * would land in the next kind's window: wait until the web process uses under a fifth of a CPU.
   */
  const untilWebIdle = async () => {
    for (let waited = 0; waited < 60_000; waited += 500) {
      const before = cpuSecondsOf(web.pid);
      await new Promise((r) => setTimeout(r, 500));
      if (cpuSecondsOf(web.pid) - before < 0.1) return;
    }
    console.log('The web process stayed busy for 60 s after the load; measuring anyway');
  };

  /** B's read, with the web process's event-loop delay over the same window. */
  const measureB = async (name: string) => {
    await endWindow();
    const b = await measure(name, readOfB);
    return { b, loop: await endWindow() };
  };

  const rows: { kind: string; b: LoadResult; loop: LoopDelay; a?: LoadResult }[] = [];
  rows.push({ kind: 'quiet (before)', ...(await measureB('B quiet before')) });
  for (const [kind, load] of Object.entries(loadsOfA)) {
    // A starts first and runs past B's window on both sides.
    const a = measure(`A: ${kind}`, { ...load, warmupSeconds: 1, seconds: DURATION + 2, refusalsExpected: true });
    await new Promise((r) => setTimeout(r, 1500));
    rows.push({ kind, ...(await measureB(`B while A sends ${kind}`)), a: await a });
    await untilWebIdle();
  }
  rows.push({ kind: 'quiet (after)', ...(await measureB('B quiet after')) });

  const baseline = rows[0]!.b;
  console.log(`\nTenant B's GET /dids?limit=20 (2 connections, ${DURATION} s) beside tenant A's load; baseline p50 ${baseline.p50} ms, p99 ${baseline.p99} ms`);
  console.table(
    rows.map(({ kind, b, loop, a }) => ({
      'tenant A sends': kind,
      'B req/s': b.requestsPerSecond,
      'B p50 ms': b.p50,
      'B p99 ms': b.p99,
      'B p99 - baseline': b.p99 - baseline.p99,
      target: a ? (b.p99 - baseline.p99 <= TARGET_P99_MARGIN_MS ? 'met' : 'NOT met') : '',
      'A req/s': a?.requestsPerSecond ?? '',
      'A non-2xx': a?.non2xx ?? '',
      'A errors': a?.errors ?? '',
      'A p99 ms': a?.p99 ?? '',
      'loop delay p99 ms': loop.p99,
      'loop delay max ms': loop.max,
      'held p99 ms': loop.heldP99,
      'held max ms': loop.heldMax,
      ...(PROFILE_DIR ? { profile: `window-${loop.window}.cpuprofile` } : {}),
    })),
  );
  console.log(
    "loop delay: the web process's event-loop delay over B's window (monitorEventLoopDelay, 10 ms resolution), machine load included; " +
      "held: the main thread's own CPU time between two ticks of a 10 ms timer (how long the thread was kept busy, whatever the load)",
  );
  for (const { kind, b, a } of rows) {
    if (a) {
      const ratio = b.p99 / Math.max(1, baseline.p99);
      recordRatio({ measured: `tenant B p99 while A sends ${kind}`, reference: 'tenant B p99 quiet (same run)', ratio, low: ratio, high: ratio, rounds: 1, detail: `${b.p99} vs ${baseline.p99} ms p99` });
    }
  }
} finally {
  for (const program of processes.reverse()) await program.stop();
  await stack.close();
}
console.log(`Load on this machine after the run (uptime): ${execSync('uptime').toString().trim()}`);
