import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { callJson, listen, measure, startBenchStack } from './lib.ts';
import { fetchSigningKey, registrarsFloor } from './registrars-floor.ts';

/**
 * A CPU profile of one server under authenticated registrar reads, taken only while the load runs
 * (the load generator is another process, so the profile holds the server alone):
 *   PROFILE_TARGET=floor|floor-signature|app|verify [PROFILE_LIST=1] node --import tsx test/bench/profile-registrars.ts
 * writes /tmp/css-registrars-<target>[-list].cpuprofile and prints its throughput. `floor` is the same-SQL
 * floor of registrars.bench.ts, `floor-signature` that floor with its bare check of each token's signature,
 * `app` the real route with a cached token, `verify` the app that verifies
 * every token. Then `profile-summary.ts <profile> <req/s>` shows where the time goes, and with a second
 * profile and its req/s, where the second spends more per request than the first (e.g. app against floor).
 */
const target = process.env.PROFILE_TARGET ?? 'app';
if (!['floor', 'floor-signature', 'app', 'verify'].includes(target)) {
  throw new Error('PROFILE_TARGET: floor, floor-signature, app or verify');
}
const list = process.env.PROFILE_LIST === '1';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);

const stack = await startBenchStack();
const session = new Session();
session.connect();
try {
  const token = await stack.token();
  const api = `${stack.api.url}/api/v1/registrars`;
  let id = '';
  for (let i = 0; i < 40; i += 1) {
    const body = { name: `Registrar ${i}`, namespace: `bench-${i}`, url: `https://registrar-${i}.example.com` };
    id = (await callJson(api, { method: 'POST', token, expect: 201, body })).id;
  }
  const tenantId = (await stack.db.query.users.findFirst())!.tenantId;
  const signingKey = target === 'floor-signature' ? await fetchSigningKey(stack.settingsEnv.AUTH_OIDC_ISSUER!) : undefined;
  const floor = registrarsFloor(stack.db, tenantId, signingKey);
  const floorServer = await listen((request) => floor.fetch(request));
  const url = target.startsWith('floor')
    ? `${floorServer.url}/registrars${list ? '' : `/${id}`}`
    : `${target === 'app' ? api : `${stack.verifyingApi.url}/api/v1/registrars`}${list ? '?limit=20' : `/${id}`}`;
  const headers = { authorization: `Bearer ${token}` };
  await measure('warm-up', { url, headers, seconds: 3, warmupSeconds: 0 });
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const result = await measure(target, { url, headers, seconds: SECONDS, warmupSeconds: 0 });
  const { profile } = await session.post('Profiler.stop');
  const file = `/tmp/css-registrars-${target}${list ? '-list' : ''}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  console.log(`${target}${list ? ' (list)' : ''}: ${result.requestsPerSecond} req/s, p99 ${result.p99} ms; profile in ${file}`);
  await floorServer.close();
} finally {
  session.disconnect();
  await stack.close();
}
