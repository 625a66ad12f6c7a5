import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { npmStartArgs } from '../rig/npm-start.ts';
import { freePort } from '../rig/postgres-server.ts';
import { untilHealthy } from '../rig/program.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';
import { callJson, CONNECTIONS, measure, recordRatio, startBenchStack, type LoadResult } from './lib.ts';

/**
 * Memory of the web process (`functions/server.ts`, its own process): RSS idle after start-up and its
 * peak under BENCH_MEMORY_SECONDS (default 60) of authenticated registrar reads, once with V8's default
 * heap sizing and once as `npm run start:web` starts it (its heap flags, which keep the peak under 256 MB;
 * the ratio row says what they cost in throughput).
 */
const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 60);
const START_WEB_FLAGS = npmStartArgs('functions/server.ts').slice(0, -3).join(' ');
const VARIANTS: Record<string, string> = {
  'V8 defaults': '',
  [`npm run start:web (${START_WEB_FLAGS})`]: START_WEB_FLAGS,
};
const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
};

const stack = await startBenchStack();
try {
  const token = await stack.token();
  const rows: { variant: string; 'idle RSS MB': number; 'peak RSS MB': number; 'req/s': number; 'p99 ms': number }[] = [];
  const results: LoadResult[] = [];
  for (const [variant, flags] of Object.entries(VARIANTS)) {
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
      });
      clearInterval(sampler);
      results.push(result);
      rows.push({ variant, 'idle RSS MB': idle, 'peak RSS MB': peak, 'req/s': result.requestsPerSecond, 'p99 ms': result.p99 });
    } finally {
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGTERM');
      await exited;
    }
  }
  console.log(`\nWeb process memory (own process, ${SECONDS} s of registrar reads, ${CONNECTIONS} connections)`);
  console.table(rows);
  const [defaults, ...others] = results;
  for (const other of others) {
    const ratio = other.requestsPerSecond / defaults!.requestsPerSecond;
    const row = rows[results.indexOf(other)]!;
    recordRatio({ measured: `web process, ${row.variant}`, reference: 'V8 defaults', ratio, low: ratio, high: ratio, rounds: 1, detail: `peak RSS ${row['peak RSS MB']} vs ${rows[0]!['peak RSS MB']} MB` });
  }
} finally {
  await stack.close();
}
