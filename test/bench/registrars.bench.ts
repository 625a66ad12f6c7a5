import { Hono } from 'hono';
import { findRegistrarWithSchemes, listRegistrars } from '../../core/registrars/registrar-repository.ts';
import { callJson, listen, pairedRounds, startBenchStack } from './lib.ts';

/**
 * Authenticated registrar reads through the whole platform (bearer verification, tenancy, validation,
 * mapping) against a floor that runs the very same repository functions (the same prepared SQL) behind
 * a bare Hono route: no auth, no tenancy check, no validation, no platform middleware. The floor, the
 * real app and the real app verifying every token share the process and the pool; the load generator
 * runs in its own process. Targets: ≥ 85% of the floor with a cached token, ≥ 70% verifying per request.
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

  const floor = new Hono();
  floor.get('/registrars/:id', async (c) => {
    const row = await findRegistrarWithSchemes(stack.db, tenantId, c.req.param('id'));
    return row ? c.json(row) : c.json({ error: 'Registrar not found' }, 404);
  });
  floor.get('/registrars', async (c) => {
    const { rows, total } = await listRegistrars(stack.db, tenantId, { limit: 20, offset: 0 });
    return c.json({ data: rows, total });
  });
  const floorServer = await listen((request) => floor.fetch(request));

  const auth = { authorization: `Bearer ${token}` };
  const variants = (label: string, floorPath: string, apiPath: string) =>
    pairedRounds(
      `Registrar ${label}: real route vs same-SQL floor`,
      { name: `floor ${label}`, load: { url: `${floorServer.url}${floorPath}` } },
      [
        { name: `${label}, cached token`, load: { url: `${stack.api.url}${apiPath}`, headers: auth }, target: 0.85 },
        { name: `${label}, verified per request`, load: { url: `${stack.verifyingApi.url}${apiPath}`, headers: auth }, target: 0.7 },
      ],
    );
  try {
    await variants('GET /registrars/{id}', `/registrars/${id}`, `${path}/${id}`);
    await variants('GET /registrars?limit=20', '/registrars', `${path}?limit=20`);
  } finally {
    await floorServer.close();
  }
} finally {
  await stack.close();
}
