import { spawn } from 'node:child_process';
import { npmStartArgs } from '../rig/npm-start.ts';
import { freePort } from '../rig/postgres-server.ts';
import { untilHealthy } from '../rig/program.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';
import { callJson, CONNECTIONS, measure, median, recordPairedCpuRatio, recordPairedRatio, recordRatio, ROUNDS, startBenchStack, type LoadResult, type PairedResults } from './lib.ts';
import { rssMbOf } from './process-rss.ts';

/**
 * Memory of the web process (`functions/server.ts`, its own process): RSS idle after start-up and its
 * peak under BENCH_MEMORY_SECONDS (default 30) of authenticated registrar reads, with V8's default heap
 * sizing and as `npm run start:web` starts it (its heap flags, which keep the peak under 256 MB), in
 * BENCH_ROUNDS paired rounds (default 5), order alternating, each variant a fresh process in each round.
 * The ratio row says what the flags cost in throughput (median of the rounds, with the spread) and in
 * the server's CPU per request; the peak is the highest of any round. BENCH_MEMORY_FLAGS adds a third
 * variant with those node flags (to try another setting against the same rounds).
 */
const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 30);
const START_WEB_FLAGS = npmStartArgs('functions/server.ts').slice(0, -3).join(' ');
const DEFAULTS = 'V8 defaults';
/** Issue 18 §2: the web process under the benchmark stays under this. */
const BUDGET_MB = 256;
const VARIANTS: Record<string, string> = {
  [DEFAULTS]: '',
  [`npm run start:web (${START_WEB_FLAGS})`]: START_WEB_FLAGS,
  ...(process.env.BENCH_MEMORY_FLAGS ? { [`tried: ${process.env.BENCH_MEMORY_FLAGS}`]: process.env.BENCH_MEMORY_FLAGS } : {}),
};
const rssMb = (pid: number) => Math.round(rssMbOf(pid));
interface Round {
  idle: number;
  peak: number;
  result: LoadResult;
}

const stack = await startBenchStack();
try {
  const token = await stack.token();
  /** One variant's round: a fresh web process, its idle RSS, then its peak under load. */
  const runRound = async (variant: string, flags: string): Promise<Round> => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = spawn(process.execPath, [...flags.split(' ').filter(Boolean), '--import', 'tsx', 'functions/server.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        RI_DATABASE_URL: stack.databaseUrl,
        RI_APP_URL: url,
        DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        AUTH_OIDC_ISSUER: stack.issuer,
        AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
        AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
        AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    try {
      const failure = await untilHealthy(server, `${url}/api/health`);
      if (failure) throw new Error(`the web process did not start: ${failure}`);
      const created = await callJson(`${url}/api/v1/registrars`, {
        method: 'POST', token, expect: 201, body: { name: 'Memory', namespace: `memory-${port}`, url: 'https://memory.example.com' },
      });
      await new Promise((r) => setTimeout(r, 2000)); // start-up work in the background settles
      const idle = rssMb(server.pid!);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid!))), 500);
      const headers = { authorization: `Bearer ${token}` };
      const result = await measure(`${variant}: GET /registrars/{id} and ?limit=20`, {
        url: `${url}/api/v1/registrars/${created.id}`,
        requests: [{ method: 'GET', path: `/api/v1/registrars/${created.id}`, headers }, { method: 'GET', path: '/api/v1/registrars?limit=20', headers }],
        headers,
        seconds: SECONDS,
        serverPid: server.pid!,
      });
      clearInterval(sampler);
      return { idle, peak: Math.max(peak, rssMb(server.pid!)), result };
    } finally {
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGTERM');
      await exited;
    }
  };

  const names = Object.keys(VARIANTS);
  const rounds = new Map<string, Round[]>(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) rounds.get(name)!.push(await runRound(name, VARIANTS[name]!));
  }

  console.log(`\nWeb process memory (own process, ${SECONDS} s of registrar reads, ${CONNECTIONS} connections, ${ROUNDS} paired rounds, order alternating)`);
  console.table(
    names.map((variant) => {
      const runs = rounds.get(variant)!;
      return {
        variant,
        'idle RSS MB (median)': median(runs.map((r) => r.idle)),
        'peak RSS MB (highest)': Math.max(...runs.map((r) => r.peak)),
        'peak RSS per round': runs.map((r) => r.peak).join(' '),
        'req/s (median)': Math.round(median(runs.map((r) => r.result.requestsPerSecond))),
        'req/s per round': runs.map((r) => r.result.requestsPerSecond).join(' '),
        'p99 ms': median(runs.map((r) => r.result.p99)),
        'server CPU µs/req': Math.round(median(runs.map((r) => r.result.serverCpuMicros!))),
      };
    }),
  );
  // The throughput and CPU ratios by the paired rounds' own rules; the memory budget as headroom (256 MB ÷ the
  // highest peak), a target for the flags tried (V8's defaults are shown for comparison, not held to it).
  const loads = new Map(names.map((name) => [name, rounds.get(name)!.map((r) => r.result)]));
  const results: PairedResults = { rounds: ROUNDS, runs: loads, medianOf: (name, key) => Math.round(median(loads.get(name)!.map((run) => run[key]))) };
  for (const variant of names) {
    const peak = Math.max(...rounds.get(variant)!.map((r) => r.peak));
    recordRatio({ measured: `${variant}: peak RSS headroom (${BUDGET_MB} MB ÷ peak)`, reference: `${BUDGET_MB} MB`, ratio: BUDGET_MB / peak, low: BUDGET_MB / peak, high: BUDGET_MB / peak, rounds: ROUNDS, target: variant === DEFAULTS ? undefined : 1, detail: `peak ${peak} MB` });
    if (variant === DEFAULTS) continue;
    recordPairedRatio(results, variant, DEFAULTS);
    recordPairedCpuRatio(results, variant, DEFAULTS);
  }
} finally {
  await stack.close();
}
