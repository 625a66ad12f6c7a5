import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/client.ts';
import { insertBatch, insertTenant } from '../../test/rig/batch-recovery-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { findTenantBatch, findTenantBatchItem, transitionItem } from './batch-repository.ts';

/**
 * An item's move through the repository: the item row and its batch's counters and version are written
 * together, and an item the caller hands over `locked` moves only when it is the item named, in one of `from`.
 */
let database: TestDatabase;
let handle: DatabaseHandle;
let tenantId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.url, { max: 2 });
  tenantId = await insertTenant(handle.db);
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('transitionItem', () => {
  it('moves the item and, with it, both counters and the batch version', async () => {
    const { batch } = await insertBatch(handle.db, tenantId, ['QUEUED', 'QUEUED'], { settle: false });
    const item = (await findTenantBatchItem(handle.db, tenantId, batch.id, 0))!;
    const moved = await handle.db.transaction((tx) => transitionItem(tx, { batchId: batch.id, itemId: item.id, from: ['QUEUED'], to: 'PROCESSING' }));
    expect(moved?.after.state).toBe('PROCESSING');
    expect(moved?.batch).toMatchObject({ queuedCount: batch.queuedCount - 1, processingCount: batch.processingCount + 1, version: batch.version + 1 });
    expect(await findTenantBatch(handle.db, tenantId, batch.id)).toMatchObject({ queuedCount: batch.queuedCount - 1, version: batch.version + 1 });
  });

  it('moves a locked item handed over only when it is the item named, in one of `from`; otherwise writes nothing', async () => {
    const { batch } = await insertBatch(handle.db, tenantId, ['QUEUED', 'QUEUED'], { settle: false });
    const [first, second] = [(await findTenantBatchItem(handle.db, tenantId, batch.id, 0))!, (await findTenantBatchItem(handle.db, tenantId, batch.id, 1))!];
    const refused = await handle.db.transaction(async (tx) => [
      await transitionItem(tx, { batchId: batch.id, itemId: first.id, locked: first, from: ['PROCESSING'], to: 'ISSUED' }),
      await transitionItem(tx, { batchId: batch.id, itemId: first.id, locked: second, from: ['QUEUED'], to: 'PROCESSING' }),
      await transitionItem(tx, { batchId: 'another-batch', itemId: first.id, locked: first, from: ['QUEUED'], to: 'PROCESSING' }),
    ]);
    expect(refused).toEqual([undefined, undefined, undefined]);
    expect(await findTenantBatch(handle.db, tenantId, batch.id)).toMatchObject({ version: batch.version, queuedCount: batch.queuedCount });
    expect((await findTenantBatchItem(handle.db, tenantId, batch.id, 0))!.state).toBe('QUEUED');

    const moved = await handle.db.transaction((tx) => transitionItem(tx, { batchId: batch.id, itemId: first.id, locked: first, from: ['QUEUED'], to: 'PROCESSING' }));
    expect(moved).toMatchObject({ before: { id: first.id, state: 'QUEUED' }, after: { id: first.id, state: 'PROCESSING' }, batch: { version: batch.version + 1 } });
  });
});
