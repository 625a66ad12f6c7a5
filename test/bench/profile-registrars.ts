import { callJson, measure, startBenchStack } from './lib.ts';

/**
 * Load on the authenticated registrar GETs for a CPU profile of the web app (the load generator is
 * another process, so the profile holds only the servers):
 *   node --cpu-prof --cpu-prof-dir=/tmp/css-prof --import tsx test/bench/profile-registrars.ts
 *   node --import tsx test/bench/profile-summary.ts /tmp/css-prof/<file>.cpuprofile
 * PROFILE_VERIFY=1 profiles the app that verifies every token.
 */
const stack = await startBenchStack();
try {
  const token = await stack.token();
  const api = `${stack.api.url}/api/v1/registrars`;
  let id = '';
  for (let i = 0; i < 40; i += 1) {
    const body = { name: `Registrar ${i}`, namespace: `bench-${i}`, url: `https://registrar-${i}.example.com` };
    id = (await callJson(api, { method: 'POST', token, expect: 201, body })).id;
  }
  const base = process.env.PROFILE_VERIFY ? stack.verifyingApi.url : stack.api.url;
  const headers = { authorization: `Bearer ${token}` };
  const rssBefore = process.memoryUsage().rss;
  const byId = await measure('GET /registrars/{id}', { url: `${base}/api/v1/registrars/${id}`, headers });
  const list = await measure('GET /registrars?limit=20', { url: `${base}/api/v1/registrars?limit=20`, headers });
  console.table([byId, list]);
  console.log(`RSS of the server process: ${Math.round(rssBefore / 2 ** 20)} MB idle, ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB after load`);
} finally {
  await stack.close();
}
