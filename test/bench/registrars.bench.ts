import { Hono } from 'hono';
import { desc, eq } from 'drizzle-orm';
import { registrars } from '../../db/schema/index.ts';
import { callJson, listen, measure, report, startBenchStack, type LoadResult } from './lib.ts';

/**
 * Authenticated registrar reads through the whole platform (bearer verification, tenancy, validation,
 * mapping) against a floor measured in the same run: a bare Hono route doing the same single SELECT
 * with no auth and no tenancy. Target: the real routes reach at least 60% of the floor's throughput.
 */
const TARGET = 0.6;
const stack = await startBenchStack();
try {
  const token = await stack.token();
  const api = `${stack.api.url}/api/v1/registrars`;
  let id = '';
  for (let i = 0; i < 40; i += 1) {
    const created = await callJson(api, {
      method: 'POST',
      token,
      expect: 201,
      body: { name: `Registrar ${i}`, namespace: `bench-${i}`, url: `https://registrar-${i}.example.com` },
    });
    id = created.id;
  }

  const floor = new Hono();
  floor.get('/registrars/:id', async (c) => {
    const [row] = await stack.db.select().from(registrars).where(eq(registrars.id, c.req.param('id')));
    return row ? c.json(row) : c.json({ error: 'Registrar not found' }, 404);
  });
  floor.get('/registrars', async (c) => {
    const rows = await stack.db.select().from(registrars).orderBy(desc(registrars.createdAt)).limit(20);
    return c.json({ data: rows });
  });
  const floorServer = await listen((request) => floor.fetch(request));

  const auth = { authorization: `Bearer ${token}` };
  const rows: LoadResult[] = [
    await measure('floor GET /registrars/{id}', { url: `${floorServer.url}/registrars/${id}` }),
    await measure('real GET /api/v1/registrars/{id}', { url: `${api}/${id}`, headers: auth }),
    await measure('floor GET /registrars?limit=20', { url: `${floorServer.url}/registrars` }),
    await measure('real GET /api/v1/registrars?limit=20', { url: `${api}?limit=20`, headers: auth }),
  ];
  await floorServer.close();

  const floorOf = (row: LoadResult) => (row.name.startsWith('real') ? rows[rows.indexOf(row) - 1]!.requestsPerSecond : undefined);
  report('Registrar reads: real route vs bare floor (same process, same pool size)', rows, floorOf);
  const shortfalls = rows.filter((row) => {
    const reference = floorOf(row);
    return reference !== undefined && row.requestsPerSecond < reference * TARGET;
  });
  for (const row of shortfalls) console.log(`below target (${TARGET * 100}% of floor): ${row.name}`);
} finally {
  await stack.close();
}
