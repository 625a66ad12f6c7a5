import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/client.ts';
import { insertBatch, insertTenant } from '../../test/rig/batch-recovery-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { eq } from 'drizzle-orm';
import { credentialBatchItems } from '../../db/schema/credential-batches.ts';
import { findDueItems, findTenantBatch, findTenantBatchItem, transitionItem } from './batch-repository.ts';

/**
 * An item's move through the repository: the item row and its batch's counters and version are written
 * together, in one statement; an item moves only when it is the item named (or the first due), in one of `from`.
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

  it('moves only the item named, of that batch, in one of `from`, holding the attempt token when one is given; otherwise writes nothing', async () => {
    const { batch } = await insertBatch(handle.db, tenantId, ['QUEUED', 'QUEUED'], { settle: false });
    const first = (await findTenantBatchItem(handle.db, tenantId, batch.id, 0))!;
    const refused = await handle.db.transaction(async (tx) => [
      await transitionItem(tx, { batchId: batch.id, itemId: first.id, from: ['PROCESSING'], to: 'ISSUED' }),
      await transitionItem(tx, { batchId: 'another-batch', itemId: first.id, from: ['QUEUED'], to: 'PROCESSING' }),
      await transitionItem(tx, { batchId: batch.id, itemId: first.id, from: ['QUEUED'], to: 'PROCESSING', attemptToken: 'not-its-token' }),
    ]);
    expect(refused).toEqual([undefined, undefined, undefined]);
    expect(await findTenantBatch(handle.db, tenantId, batch.id)).toMatchObject({ version: batch.version, queuedCount: batch.queuedCount });
    expect((await findTenantBatchItem(handle.db, tenantId, batch.id, 0))!.state).toBe('QUEUED');

    const at = new Date('2030-01-02T03:04:05.678Z');
    const moved = await handle.db.transaction((tx) =>
      transitionItem(tx, {
        batchId: batch.id,
        itemId: first.id,
        from: ['QUEUED'],
        to: 'PROCESSING',
        set: { attemptToken: 'token-1', attemptCount: 3, nextAttemptAt: null, warnings: [{ code: 'W' }] },
        batchChange: { claimExpiresAt: at },
      }),
    );
    expect(moved).toMatchObject({
      before: { id: first.id, state: 'QUEUED' },
      after: { id: first.id, state: 'PROCESSING', attemptToken: 'token-1', attemptCount: 3, nextAttemptAt: null, warnings: [{ code: 'W' }] },
      batch: { version: batch.version + 1, claimExpiresAt: at, queuedCount: batch.queuedCount - 1 },
    });
    expect(moved!.after.updatedAt).toBeInstanceOf(Date);
    // What the statement answered is what a read answers.
    expect(moved!.after).toEqual(await findTenantBatchItem(handle.db, tenantId, batch.id, 0));
    expect(moved!.batch).toEqual(await findTenantBatch(handle.db, tenantId, batch.id));
    const again = await handle.db.transaction((tx) =>
      transitionItem(tx, { batchId: batch.id, itemId: first.id, from: ['PROCESSING'], to: 'ISSUED', attemptToken: 'token-1', set: { credentialId: null } }),
    );
    expect(again).toMatchObject({ before: { state: 'PROCESSING' }, after: { state: 'ISSUED' }, batch: { processingCount: batch.processingCount, issuedCount: batch.issuedCount + 1 } });
  });

  it('the first due item: QUEUED, no retry time or one past, lowest index first; its attempt counted', async () => {
    const { batch } = await insertBatch(handle.db, tenantId, ['QUEUED', 'QUEUED', 'QUEUED'], { settle: false });
    const [first, second, third] = await Promise.all([0, 1, 2].map(async (i) => (await findTenantBatchItem(handle.db, tenantId, batch.id, i))!));
    const now = new Date();
    await handle.db.update(credentialBatchItems).set({ nextAttemptAt: new Date(now.getTime() + 60_000) }).where(eq(credentialBatchItems.id, first!.id));
    await handle.db.update(credentialBatchItems).set({ nextAttemptAt: new Date(now.getTime() - 60_000) }).where(eq(credentialBatchItems.id, second!.id));
    expect((await findDueItems(handle.db, batch.id, now, 5)).map((item) => item.id)).toEqual([second!.id, third!.id]);
    const claim = () =>
      handle.db.transaction((tx) =>
        transitionItem(tx, { batchId: batch.id, itemId: { firstDueAt: now }, from: ['QUEUED'], to: 'PROCESSING', set: { nextAttemptAt: null }, countAttempt: true }),
      );
    expect(await claim()).toMatchObject({ after: { id: second!.id, state: 'PROCESSING', attemptCount: second!.attemptCount + 1, nextAttemptAt: null } });
    expect(await claim()).toMatchObject({ after: { id: third!.id, attemptCount: third!.attemptCount + 1 } });
    expect(await claim()).toBeUndefined();
    expect(await findTenantBatch(handle.db, tenantId, batch.id)).toMatchObject({ queuedCount: 1, processingCount: 2, version: batch.version + 2 });
  });
});
