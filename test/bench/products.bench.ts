import { Hono } from 'hono';
import { createProducts, listProducts, type ProductInput } from '../../core/products/product-repository.ts';
import { identifiers, type ProductLevel } from '../../db/schema/index.ts';
import { callJson, listen, median, pairedRounds, pairedTimings, ROUNDS, startBenchStack } from './lib.ts';

/**
 * Products against a floor that calls the same domain functions (`createProducts`, `listProducts`:
 * the same SQL) behind a bare Hono route with no auth, tenancy, validation or platform middleware.
 * - Bulk create of 500 products in one request (issue 3's target: under 1 s), paired with the floor.
 * - `GET /products?search=` over 10,000 products (issue 3's target: p99 under 50 ms), cached token.
 */
const BULK = 500;
/** Paired bulk rounds: each round creates 2 × 500 products, so 10 rounds leave 10,000 to search. */
const BULK_ROUNDS = Math.max(ROUNDS, 10);
const stack = await startBenchStack();
try {
  const token = await stack.token();
  const api = `${stack.api.url}/api/v1`;
  const registrar = await callJson(`${api}/registrars`, {
    method: 'POST', token, expect: 201, body: { name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org' },
  });
  const scheme = await callJson(`${api}/schemes`, {
    method: 'POST', token, expect: 201,
    body: { registrarId: registrar.id, name: 'GTIN', primaryKey: '01', validationPattern: '^\\d{14}$', linkTemplate: '/{primaryKey}/{value}' },
  });
  const [org] = await callJson(`${api}/organisations`, { method: 'POST', token, expect: 201, body: [{ name: 'Producer' }] });
  const [facility] = await callJson(`${api}/facilities`, { method: 'POST', token, expect: 201, body: [{ name: 'Factory' }] });
  const [model] = await callJson(`${api}/products`, { method: 'POST', token, expect: 201, body: [{ name: 'Model', level: 'MODEL' }] });
  const [batch] = await callJson(`${api}/products`, { method: 'POST', token, expect: 201, body: [{ name: 'Batch', level: 'BATCH', parentId: model.id }] });

  // Half of the products get a primary identifier (inserted directly: this bench is about products).
  const tenantId = (await stack.db.query.users.findFirst())!.tenantId;
  const identifierRows = Array.from({ length: BULK * BULK_ROUNDS }, (_, i) => ({
    tenantId, schemeId: scheme.id, value: String(9_500_000_000_000 + i).padStart(14, '0'),
  }));
  const made: { id: string }[] = [];
  for (let i = 0; i < identifierRows.length; i += 1000) {
    made.push(...(await stack.db.insert(identifiers).values(identifierRows.slice(i, i + 1000)).returning({ id: identifiers.id })));
  }

  const floor = new Hono();
  floor.post('/products', async (c) => c.json(await createProducts(stack.db, tenantId, await c.req.json<ProductInput[]>()), 201));
  floor.get('/products', async (c) => {
    const { search, level, limit } = c.req.query();
    const page = { limit: Number(limit ?? 20), offset: 0 };
    return c.json(await listProducts(stack.db, tenantId, { search, level: level as ProductLevel | undefined }, page));
  });
  const floorServer = await listen((request) => floor.fetch(request));

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
      { name: `floor ${label}`, load: { url: `${floorServer.url}/products?${query}` } },
      [{ name: `GET /products?${label}, cached token`, load: { url: `${api}/products?${query}`, headers: auth } }],
    );
  try {
    await search('search=<name substring>', 'search=widget%201');
    await search('search=<identifier value>', 'search=9500000000123');
    await search('level=ITEM&limit=100', 'level=ITEM&limit=100');
  } finally {
    await floorServer.close();
  }
} finally {
  await stack.close();
}
