import { identifiers } from '../../db/schema/index.ts';
import { callJson, median, pairedRounds, pairedTimings, ROUNDS, startBenchStack, startServerProcess } from './lib.ts';

/**
 * Products against a floor that calls the same domain functions (`createProducts`, `listProducts`:
 * the same SQL) behind a bare Hono route with no auth, tenancy, validation or platform middleware
 * (products-floor.ts). The floor and the real app each run in a process of their own, started as the
 * web process is (server-process.ts); the load generator in yet another; searches also compare each
 * server's CPU per request.
 * - Bulk create of 500 products in one request (issue 3's target: under 1 s), paired with the floor.
 * - `GET /products?search=` over 10,000 products (issue 3's target: p99 under 50 ms), cached token.
 */
const BULK = 500;
/** Paired bulk rounds: each round creates 2 × 500 products, so 10 rounds leave 10,000 to search. */
const BULK_ROUNDS = Math.max(ROUNDS, 10);
const stack = await startBenchStack();
try {
  const token = await stack.token();
  const fixtures = `${stack.api.url}/api/v1`;
  const registrar = await callJson(`${fixtures}/registrars`, {
    method: 'POST', token, expect: 201, body: { name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org' },
  });
  const scheme = await callJson(`${fixtures}/schemes`, {
    method: 'POST', token, expect: 201,
    body: { registrarId: registrar.id, name: 'GTIN', primaryKey: '01', validationPattern: '^\\d{14}$', linkTemplate: '/{primaryKey}/{value}' },
  });
  const [org] = await callJson(`${fixtures}/organisations`, { method: 'POST', token, expect: 201, body: [{ name: 'Producer' }] });
  const [facility] = await callJson(`${fixtures}/facilities`, { method: 'POST', token, expect: 201, body: [{ name: 'Factory' }] });
  const [model] = await callJson(`${fixtures}/products`, { method: 'POST', token, expect: 201, body: [{ name: 'Model', level: 'MODEL' }] });
  const [batch] = await callJson(`${fixtures}/products`, { method: 'POST', token, expect: 201, body: [{ name: 'Batch', level: 'BATCH', parentId: model.id }] });

  // Half of the products get a primary identifier (inserted directly: this bench is about products).
  const tenantId = (await stack.db.query.users.findFirst())!.tenantId;
  const identifierRows = Array.from({ length: BULK * BULK_ROUNDS }, (_, i) => ({
    tenantId, schemeId: scheme.id, value: String(9_500_000_000_000 + i).padStart(14, '0'),
  }));
  const made: { id: string }[] = [];
  for (let i = 0; i < identifierRows.length; i += 1000) {
    made.push(...(await stack.db.insert(identifiers).values(identifierRows.slice(i, i + 1000)).returning({ id: identifiers.id })));
  }

  const job = { databaseUrl: stack.databaseUrl, settingsEnv: stack.settingsEnv, tenantId };
  const [floorServer, app] = await Promise.all([startServerProcess({ ...job, role: 'products-floor' }), startServerProcess({ ...job, role: 'app' })]);
  const api = `${app.url}/api/v1`;
  try {
    const words = ['widget', 'gadget', 'sprocket', 'bracket', 'valve', 'cell', 'module', 'panel'];
    let next = 0;
    const bulkBody = () => {
      const r = next++;
      return Array.from({ length: BULK }, (_, i) => {
        const n = r * BULK + i;
        return {
          name: `${words[n % words.length]} ${n}`,
          level: 'ITEM',
          parentId: n % 3 === 0 ? batch.id : undefined,
          producedByOrganisationId: org.id,
          manufacturingFacilityId: n % 2 === 0 ? facility.id : undefined,
          primaryIdentifierId: n % 2 === 0 ? made[n / 2]!.id : undefined,
        };
      });
    };
    const timedCreate = (base: string, auth?: string) => async () => {
      const body = bulkBody();
      const started = performance.now();
      const created = await callJson(`${base}/products`, { method: 'POST', token: auth, expect: 201, body });
      const ms = performance.now() - started;
      if (created.length !== BULK) throw new Error('bulk create returned the wrong number of products');
      return ms;
    };
    const bulk = await pairedTimings(
      { name: `floor bulk create of ${BULK}`, run: timedCreate(floorServer.url) },
      { name: `POST /products, ${BULK} in one request`, run: timedCreate(api, token) },
      BULK_ROUNDS,
    );
    console.log(`\nBulk create of ${BULK} products in one request (${BULK_ROUNDS} paired rounds; target < 1000 ms)`);
    console.table({
      real: { 'median ms': Math.round(median(bulk.measuredMs)), 'max ms': Math.round(Math.max(...bulk.measuredMs)) },
      floor: { 'median ms': Math.round(median(bulk.referenceMs)), 'max ms': Math.round(Math.max(...bulk.referenceMs)) },
    });

    // Steady state: autovacuum would have analysed the freshly filled tables by now.
    await stack.sql`analyze`;
    const auth = { authorization: `Bearer ${token}` };
    const search = (label: string, query: string) =>
      pairedRounds(
        `Products ${label} over ${BULK * 2 * BULK_ROUNDS + 2} products (target p99 < 50 ms): real route vs same-SQL floor`,
        { name: `floor ${label}`, load: { url: `${floorServer.url}/products?${query}`, headers: auth, serverPid: floorServer.pid } },
        [{ name: `GET /products?${label}, cached token`, load: { url: `${api}/products?${query}`, headers: auth, serverPid: app.pid } }],
      );
    await search('search=<name substring>', 'search=widget%201');
    await search('search=<identifier value>', 'search=9500000000123');
    await search('level=ITEM&limit=100', 'level=ITEM&limit=100');
  } finally {
    await Promise.all([floorServer.close(), app.close()]);
  }
} finally {
  await stack.close();
}
