import { identifiers } from '../../db/schema/index.ts';
import { callJson, measure, report, startBenchStack } from './lib.ts';

/**
 * Issue 3's product targets: a bulk create of 500 products in one request under 1 s, and
 * `GET /products?search=` over 10,000 products with p99 under 50 ms (10 connections).
 */
const BULK = 500;
const REQUESTS = 20;
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
  const identifierRows = Array.from({ length: (BULK * REQUESTS) / 2 }, (_, i) => ({
    tenantId, schemeId: scheme.id, value: String(9_500_000_000_000 + i).padStart(14, '0'),
  }));
  const made: { id: string }[] = [];
  for (let i = 0; i < identifierRows.length; i += 1000) {
    made.push(...(await stack.db.insert(identifiers).values(identifierRows.slice(i, i + 1000)).returning({ id: identifiers.id })));
  }

  const words = ['widget', 'gadget', 'sprocket', 'bracket', 'valve', 'cell', 'module', 'panel'];
  const bulkTimes: number[] = [];
  for (let r = 0; r < REQUESTS; r++) {
    const body = Array.from({ length: BULK }, (_, i) => {
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
    const started = performance.now();
    const created = await callJson(`${api}/products`, { method: 'POST', token, expect: 201, body });
    bulkTimes.push(performance.now() - started);
    if (created.length !== BULK) throw new Error('bulk create returned the wrong number of products');
  }
  bulkTimes.sort((a, b) => a - b);
  console.log(`\nBulk create of ${BULK} products in one request (${REQUESTS} requests, ${BULK * REQUESTS} products in all)`);
  console.table({
    'median ms': Math.round(bulkTimes[Math.floor(REQUESTS / 2)]!),
    'max ms': Math.round(bulkTimes[REQUESTS - 1]!),
    target: '< 1000 ms',
  });

  // Steady state: autovacuum would have analysed the freshly filled tables by now.
  await stack.sql`analyze`;
  const auth = { authorization: `Bearer ${token}` };
  const rows = [
    await measure('GET /products?search=<name substring>', { url: `${api}/products?search=widget%201`, headers: auth }),
    await measure('GET /products?search=<identifier value>', { url: `${api}/products?search=9500000000123`, headers: auth }),
    await measure('GET /products?level=ITEM&limit=100', { url: `${api}/products?level=ITEM&limit=100`, headers: auth }),
  ];
  report(`Product search over ${BULK * REQUESTS + 2} products (target p99 < 50 ms)`, rows);
} finally {
  await stack.close();
}
