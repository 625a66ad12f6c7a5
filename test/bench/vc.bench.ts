import { spawn } from 'node:child_process';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { availableParallelism } from 'node:os';
import postgres from 'postgres';
import { startPostgres, freePort } from '../rig/postgres-server.ts';
import { CONNECTIONS, DURATION, report, type LoadResult } from './lib.ts';

/**
 * The VC service as deployed: its own program (`vc-service/server.ts`, WORKERS default = one process
 * per CPU), its own database, 10 connections from autocannon in a separate process. Rows: issue a
 * 2 KB credential, verify it (signature and status entry). Floor, measured in this run: raw Ed25519
 * signing and verifying of the same JWS signing input in-process (node:crypto, one core).
 * Targets on a 2-core machine: issue ≥ 3,000/s, verify ≥ 2,000/s.
 */
const TARGET: Record<string, number> = { 'issue 2 KB VC': 3000, 'verify 2 KB VC': 2000 };
const API_KEY = 'bench-vc-key';
const headers = { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` };

const credentialOf = (issuer: string, status: unknown) => {
  const base = {
    '@context': ['https://www.w3.org/ns/credentials/v2', 'https://test.uncefact.org/vocabulary/untp/dpp/0.6.0/'],
    type: ['VerifiableCredential', 'DigitalProductPassport'],
    id: 'urn:uuid:5b7e0b8e-4c5c-4a8e-9e1a-000000000001',
    issuer: { type: ['CredentialIssuer'], id: issuer, name: 'Acme Manufacturing' },
    validFrom: '2026-01-01T00:00:00Z',
    credentialStatus: status,
    credentialSubject: { id: 'https://id.example.com/01/09520123456788', type: ['Product'], name: 'Widget', description: '' },
  };
  base.credentialSubject.description = 'x'.repeat(2048 - JSON.stringify(base).length);
  return base;
};

/** autocannon's CLI in its own process (1 s warm-up, then the measured run); any non-2xx fails loudly. */
const load = async (name: string, url: string, body: string): Promise<LoadResult> => {
  const run = (seconds: number) =>
    new Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; errors: number; timeouts: number; non2xx: number }>((resolve, reject) => {
      const args = ['-c', String(CONNECTIONS), '-d', String(seconds), '-m', 'POST', '-b', body, '--json'];
      for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
      const child = spawn('node_modules/.bin/autocannon', [...args, url], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited ${code}`))));
    });
  await run(1);
  const result = await run(DURATION);
  const row = { name, requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
  if (row.errors > 0 || row.non2xx > 0) throw new Error(`${name}: ${row.errors} errors and ${row.non2xx} non-2xx responses under load`);
  return row;
};

/** Operations per second of `op` on this thread for `seconds`. */
const floor = (name: string, op: () => void, seconds = 2): LoadResult => {
  for (let i = 0; i < 500; i++) op();
  const end = performance.now() + seconds * 1000;
  let count = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) op();
    count += 100;
  }
  return { name, requestsPerSecond: Math.round(count / seconds), p50: 0, p99: 0, errors: 0, non2xx: 0 };
};

const server = await startPostgres(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL);
const admin = postgres(server.adminUrl, { max: 1, onnotice: () => {} });
const database = `css_vc_bench_${process.pid}_${Date.now()}`;
await admin.unsafe(`create database "${database}"`);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const service = spawn(process.execPath, ['--import', 'tsx', 'vc-service/server.ts'], {
  env: { ...process.env, API_KEY, DATABASE_URL: server.urlFor(database), KEY_ENCRYPTION_KEY: 'ab'.repeat(32), PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, LOG_LEVEL: 'error' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const call = async (path: string, body: unknown) => {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
};

const rows: LoadResult[] = [];
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/health-check`)).ok) break;
    } catch {
      if (i > 300) throw new Error('the VC service did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const { did } = await call('/agent/didManagerCreate', { alias: 'bench.example.com' });
  const status = await call('/agent/issueBitstringStatusList', { statusPurpose: 'revocation', bitstringStatusIssuer: did });
  const credential = credentialOf(did, status);
  const issueBody = JSON.stringify({ credential, options: { proofFormat: 'EnvelopingProofJose' } });
  const { verifiableCredential } = await call('/v2/credentials/issue', JSON.parse(issueBody));
  const verifyBody = JSON.stringify({ credential: verifiableCredential, fetchRemoteContexts: true, policies: { credentialStatus: true } });
  if (!(await call('/agent/routeVerificationCredential', JSON.parse(verifyBody))).verified) throw new Error('the bench credential does not verify');

  const issue = await load('issue 2 KB VC', `${url}/v2/credentials/issue`, issueBody);
  const verifyRow = await load('verify 2 KB VC', `${url}/agent/routeVerificationCredential`, verifyBody);

  // The floor: the same signing input (header.payload) signed and verified with a raw Ed25519 key.
  const jws = verifiableCredential.id.slice(verifiableCredential.id.indexOf(',') + 1);
  const input = Buffer.from(jws.slice(0, jws.lastIndexOf('.')));
  const { privateKey: key, publicKey } = generateKeyPairSync('ed25519');
  const signature = sign(null, input, key);
  const signFloor = floor('floor: Ed25519 sign, in-process, 1 core', () => sign(null, input, key));
  const verifyFloor = floor('floor: Ed25519 verify, in-process, 1 core', () => verify(null, input, publicKey, signature));
  rows.push(issue, signFloor, verifyRow, verifyFloor);

  report(
    `VC service (own program, WORKERS default = ${availableParallelism()} CPUs), ${CONNECTIONS} connections from autocannon in its own process; floors are one core in-process`,
    rows,
    (row) => (row === issue ? signFloor.requestsPerSecond : row === verifyRow ? verifyFloor.requestsPerSecond : undefined),
  );
  for (const row of [issue, verifyRow]) {
    const target = TARGET[row.name]!;
    console.log(`${row.name}: ${row.requestsPerSecond} req/s, p99 ${row.p99} ms, target ${target}/s: ${row.requestsPerSecond >= target ? 'met' : 'NOT met'}`);
  }
} finally {
  const exited = new Promise((done) => service.once('exit', done));
  service.kill('SIGTERM');
  await exited;
  await admin.unsafe(`drop database if exists "${database}" with (force)`);
  await admin.end();
  await server.stop();
}
