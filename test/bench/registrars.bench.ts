import { callJson, pairedRounds, startBenchStack, startServerProcess } from './lib.ts';

/**
 * Authenticated registrar reads through the whole platform (bearer verification, tenancy, validation,
 * mapping) against a floor that runs the very same repository functions (the same prepared SQL) behind
 * a bare Hono route: no auth, no tenancy check, no validation, no platform middleware. The floor, the
 * real app and the real app verifying every token each run in a process of their own, started as the
 * deployed web process is (server-process.ts), with a pool of the same size; the load generator runs in
 * yet another. The floor gets the same request, bearer header included. Targets: ≥ 85% of the floor's
 * throughput with a cached token, ≥ 70% verifying per request; each server's CPU per request is
 * compared too (the load generator reads it from /proc around the measured run).
 *
 * A fourth server, the floor that also checks each token's RS256 signature with one bare `crypto.verify`
 * (registrars-floor.ts), shows what that check alone costs here: the best any route verifying every token
 * could reach against the floor.
 */
const stack = await startBenchStack();
try {
  const token = await stack.token();
  const path = '/api/v1/registrars';
  let id = '';
  for (let i = 0; i < 40; i += 1) {
    const created = await callJson(`${stack.api.url}${path}`, {
      method: 'POST',
      token,
      expect: 201,
      body: { name: `Registrar ${i}`, namespace: `bench-${i}`, url: `https://registrar-${i}.example.com` },
    });
    id = created.id;
  }
  const tenantId = (await stack.db.query.users.findFirst())!.tenantId;
  const job = { databaseUrl: stack.databaseUrl, settingsEnv: stack.settingsEnv, tenantId };
  const [floor, signatureFloor, app, verifyingApp] = await Promise.all([
    startServerProcess({ ...job, role: 'registrars-floor' }),
    startServerProcess({ ...job, role: 'registrars-floor-signature' }),
    startServerProcess({ ...job, role: 'app' }),
    startServerProcess({ ...job, role: 'verifying-app' }),
  ]);

  const auth = { authorization: `Bearer ${token}` };
  const variants = (label: string, floorPath: string, apiPath: string) =>
    pairedRounds(
      `Registrar ${label}: real route vs same-SQL floor`,
      { name: `floor ${label}`, load: { url: `${floor.url}${floorPath}`, headers: auth, serverPid: floor.pid } },
      [
        { name: `${label}, cached token`, load: { url: `${app.url}${apiPath}`, headers: auth, serverPid: app.pid }, target: 0.85 },
        {
          name: `${label}, verified per request`,
          load: { url: `${verifyingApp.url}${apiPath}`, headers: auth, serverPid: verifyingApp.pid },
          target: 0.7,
        },
        {
          name: `floor ${label} + bare signature check`,
          load: { url: `${signatureFloor.url}${floorPath}`, headers: auth, serverPid: signatureFloor.pid },
        },
      ],
    );
  try {
    await variants('GET /registrars/{id}', `/registrars/${id}`, `${path}/${id}`);
    await variants('GET /registrars?limit=20', '/registrars', `${path}?limit=20`);
  } finally {
    await Promise.all([floor.close(), signatureFloor.close(), app.close(), verifyingApp.close()]);
  }
} finally {
  await stack.close();
}
