import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { availableParallelism } from 'node:os';
import postgres from 'postgres';
import { startForeignIssuer } from '../rig/foreign-issuer.ts';
import { startPostgres } from '../rig/postgres-server.ts';
import { CONNECTIONS, measure, report, type LoadResult } from './lib.ts';
import { startVcProcess, VC_API_KEY } from './service-processes.ts';

/**
 * The VC service as deployed: its own program (`vc-service/server.ts`, WORKERS default = one process
 * per CPU), its own database, 10 connections from autocannon in a separate process. Rows: issue a
 * 2 KB credential, verify it (signature and status entry). Floor, measured in this run: raw Ed25519
 * signing and verifying of the same JWS signing input in-process (node:crypto, one core).
 * Targets on a 2-core machine: issue ≥ 3,000/s, verify ≥ 2,000/s. Beside them, in the same run: a
 * credential of another issuer (test/rig/foreign-issuer.ts, its did:web document and status list on a
 * TLS host in this process), its list revalidated on every verification (no-cache: a 304 per check)
 * and kept for its max-age.
 */
const TARGET: Record<string, number> = { 'issue 2 KB VC': 3000, 'verify 2 KB VC': 2000 };
const headers = { 'content-type': 'application/json', authorization: `Bearer ${VC_API_KEY}` };
/** autocannon in its own process (lib.ts `measure`), 1 s warm-up, then the measured run; any non-2xx fails loudly. */
const load = (name: string, url: string, body: string) => measure(name, { url, method: 'POST', headers, body, warmupSeconds: 1 });

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
const foreign = await startForeignIssuer();
const service = await startVcProcess(server.urlFor(database), foreign.vcEnv);
const url = service.url;
const call = async (path: string, body: unknown) => {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
};

const rows: LoadResult[] = [];
try {
  const { did } = await call('/agent/didManagerCreate', { alias: 'bench.example.com' });
  const status = await call('/agent/issueBitstringStatusList', { statusPurpose: 'revocation', bitstringStatusIssuer: did });
  const credential = credentialOf(did, status);
  const issueBody = JSON.stringify({ credential, options: { proofFormat: 'EnvelopingProofJose' } });
  const { verifiableCredential } = await call('/v2/credentials/issue', JSON.parse(issueBody));
  const verifyBody = JSON.stringify({ credential: verifiableCredential, fetchRemoteContexts: true, policies: { credentialStatus: true } });
  if (!(await call('/agent/routeVerificationCredential', JSON.parse(verifyBody))).verified) throw new Error('the bench credential does not verify');

  const issue = await load('issue 2 KB VC', `${url}/v2/credentials/issue`, issueBody);
  const verifyRow = await load('verify 2 KB VC', `${url}/agent/routeVerificationCredential`, verifyBody);

  const foreignCredential = await foreign.envelope(credentialOf(foreign.did, foreign.statusEntry('revocation')), 'multikey-ed25519');
  const foreignBody = JSON.stringify({ credential: foreignCredential, fetchRemoteContexts: true, policies: { credentialStatus: true } });
  if (!(await call('/agent/routeVerificationCredential', JSON.parse(foreignBody))).verified) throw new Error('the foreign bench credential does not verify');
  foreign.lists.cacheControl = 'no-cache';
  const foreignRevalidated = await load('verify 2 KB foreign VC, list revalidated (304) per check', `${url}/agent/routeVerificationCredential`, foreignBody);
  foreign.lists.cacheControl = 'public, max-age=60';
  const foreignCached = await load('verify 2 KB foreign VC, list kept for max-age', `${url}/agent/routeVerificationCredential`, foreignBody);
  const listRequests = foreign.lists.requests;

  // The floor: the same signing input (header.payload) signed and verified with a raw Ed25519 key.
  const jws = verifiableCredential.id.slice(verifiableCredential.id.indexOf(',') + 1);
  const input = Buffer.from(jws.slice(0, jws.lastIndexOf('.')));
  const { privateKey: key, publicKey } = generateKeyPairSync('ed25519');
  const signature = sign(null, input, key);
  const signFloor = floor('floor: Ed25519 sign, in-process, 1 core', () => sign(null, input, key));
  const verifyFloor = floor('floor: Ed25519 verify, in-process, 1 core', () => verify(null, input, publicKey, signature));
  rows.push(issue, signFloor, verifyRow, verifyFloor, foreignRevalidated, foreignCached);
  console.log(`foreign status list requests during the run: ${listRequests} (${foreign.lists.notModified} answered 304)`);

  report(
    `VC service (own program, WORKERS default = ${availableParallelism()} CPUs), ${CONNECTIONS} connections from autocannon in its own process; floors are one core in-process`,
    rows,
    (row) => (row === issue ? signFloor.requestsPerSecond : [verifyRow, foreignRevalidated, foreignCached].includes(row) ? verifyFloor.requestsPerSecond : undefined),
  );
  for (const row of [issue, verifyRow]) {
    const target = TARGET[row.name]!;
    console.log(`${row.name}: ${row.requestsPerSecond} req/s, p99 ${row.p99} ms, target ${target}/s: ${row.requestsPerSecond >= target ? 'met' : 'NOT met'}`);
  }
} finally {
  await service.stop();
  await foreign.close();
  await admin.unsafe(`drop database if exists "${database}" with (force)`);
  await admin.end();
  await server.stop();
}
