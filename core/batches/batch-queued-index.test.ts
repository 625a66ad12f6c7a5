import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/client.ts';
import { credentialBatches, credentialBatchItems } from '../../db/schema/credential-batches.ts';
import { insertTenant } from '../../test/rig/batch-recovery-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { dueItemsQuery, moveStatementText } from './batch-repository.ts';

/**
 * A claim and the next-item read start at the batch's first queued item (credential_batch_items_queued_idx),
 * so their cost does not grow with the items already issued: a 500-item batch would otherwise read every
 * settled item before its next one, at every item.
 */
let database: TestDatabase;
let handle: DatabaseHandle;
let client: postgres.Sql;
let batchId: string;
const ITEMS = 400;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.url, { max: 1 });
  client = postgres(database.url, { max: 1, onnotice: () => {} });
  const tenantId = await insertTenant(handle.db);
  const [batch] = await handle.db
    .insert(credentialBatches)
    .values({ tenantId, correlationId: 'c', state: 'RUNNING', itemCount: ITEMS, queuedCount: 1, issuedCount: ITEMS - 1, idempotencyKey: 'k', bodyDigest: 'd' })
    .returning();
  batchId = batch!.id;
  // Every item issued but the last: the batch near its end.
  await handle.db.insert(credentialBatchItems).values(
    Array.from({ length: ITEMS }, (_, index) => ({
      batchId,
      tenantId,
      index,
      state: index === ITEMS - 1 ? ('QUEUED' as const) : ('ISSUED' as const),
      sealedRequest: 'sealed',
      correlationId: `c-${index}`,
    })),
  );
  await handle.db.execute(sql`analyze credential_batch_items`);
});
afterAll(async () => {
  await client?.end();
  await handle?.close();
  await database?.drop();
});

/** The plan PostgreSQL runs the statement with, as JSON text. */
const plan = async (text: string, params: unknown[]) => {
  const [row] = await client.unsafe(`explain (format json) ${text}`, params as postgres.ParameterOrJSON<never>[]);
  return JSON.stringify(row);
};

describe('the queued items index', () => {
  it('is what the claim of the first due item reads', async () => {
    const claim = moveStatementText({ batchId, itemId: { firstDueAt: new Date() }, from: ['QUEUED'], to: 'PROCESSING', set: { attemptToken: 't', nextAttemptAt: null }, countAttempt: true });
    expect(await plan(claim.sql, claim.params)).toContain('"Index Name":"credential_batch_items_queued_idx"');
  });

  it('is what the read of the next due items reads', async () => {
    const due = dueItemsQuery(handle.db, batchId, new Date(), 2).toSQL();
    expect(await plan(due.sql, due.params)).toContain('"Index Name":"credential_batch_items_queued_idx"');
  });

  it('finds the one queued item of the batch, past all the issued ones', async () => {
    const [due] = await dueItemsQuery(handle.db, batchId, new Date(), 2);
    expect(due).toMatchObject({ index: ITEMS - 1, state: 'QUEUED' });
  });
});
