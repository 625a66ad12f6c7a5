import { sha256Hex } from '../../core/crypto/encoding.ts';
import { browserSessions } from '../../db/schema/index.ts';
import { callJson, pairedRounds, startBenchStack, startServerProcess } from './lib.ts';

/**
 * The console's server-rendered list of 20 organisations (`GET /console/organisations`, a signed-in session)
 * beside the API's list route for the same 20 (`GET /api/v1/organisations?limit=20`, cached token) as its
 * floor: the same query, plus JSX rendering, the nonce CSP and the session lookup. Issue 32's target: the
 * page answers in under 100 ms at p99. Both run in the web process started as in production (server-process.ts).
 */
const stack = await startBenchStack();
try {
  const token = await stack.token();
  const api = `${stack.api.url}/api/v1`;
  await callJson(`${api}/organisations`, {
    method: 'POST', token, expect: 201,
    body: Array.from({ length: 200 }, (_, i) => ({ name: `Organisation ${i} <&>`, description: `Makes things, line ${i}` })),
  });
  // A browser session of the bench account's user, as /auth/callback would store it.
  const user = (await stack.db.query.users.findFirst())!;
  const session = crypto.randomUUID();
  await stack.db.insert(browserSessions).values({
    tokenHash: await sha256Hex(session),
    userId: user.id,
    tenantId: user.tenantId,
    expiresAt: new Date(Date.now() + 3_600_000),
    refreshedAt: new Date(),
  });
  const app = await startServerProcess({ databaseUrl: stack.databaseUrl, settingsEnv: stack.settingsEnv, tenantId: user.tenantId, role: 'app' });
  try {
    const page = await fetch(`${app.url}/console/organisations`, { headers: { cookie: `css_session=${session}` } });
    if (page.status !== 200 || !(await page.text()).includes('200 organisations')) throw new Error(`the console list did not render: ${page.status}`);
    await pairedRounds(
      'Console list of 20 organisations (target p99 < 100 ms): server-rendered page vs the API list route',
      { name: 'GET /api/v1/organisations?limit=20', load: { url: `${app.url}/api/v1/organisations?limit=20`, headers: { authorization: `Bearer ${token}` }, serverPid: app.pid } },
      [{ name: 'GET /console/organisations (20 rows)', load: { url: `${app.url}/console/organisations`, headers: { cookie: `css_session=${session}` }, serverPid: app.pid } }],
    );
  } finally {
    await app.close();
  }
} finally {
  await stack.close();
}
