import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, libraryRecords } from '../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { BATCHES, batchCount, batchRow, issueJobs, item, itemRows, submit } from '../../test/rig/batch-submission.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp({ env: { WORKER_JOB_TIMEOUT_SECONDS: '120' } });
  token = await t.token('tenantA');
});
afterAll(() => t.close());

describe('POST /credentials/batches', () => {
  it('on a database no worker has seen: 202 with Location, the batch QUEUED with its first job, requests sealed, nothing issued', async () => {
    const res = await submit(t, token, { items: [item({ reference: 'line-1' }), item()] }, 'first-key', { 'x-correlation-id': 'order-4711' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ batchId: expect.any(String), status: `${BATCHES}/${res.body.batchId}` });
    expect(res.headers.get('location')).toBe(res.body.status);

    const row = await batchRow(t.db, res.body.batchId);
    expect(row).toMatchObject({ state: 'QUEUED', itemCount: 2, queuedCount: 2, correlationId: 'order-4711', idempotencyKey: 'first-key', version: 1 });
    expect(row!.tenantId).toBe(await t.tenantOf('tenantA'));
    const items = await itemRows(t.db, res.body.batchId);
    expect(items.map((i) => [i.index, i.reference, i.state])).toEqual([[0, 'line-1', 'QUEUED'], [1, null, 'QUEUED']]);
    for (const i of items) {
      expect(i.sealedRequest).not.toContain('DigitalProductPassport');
      expect(await t.services.secretBox.decryptJson(i.sealedRequest)).toEqual(item());
    }
    expect(items.map((i) => i.correlationId)).toEqual(['order-4711-0', 'order-4711-1']);
    // The first job carries the web process's WORKER_JOB_TIMEOUT_SECONDS; no worker runs, so it waits.
    expect([...(await issueJobs(t.db, res.body.batchId))].map((j) => [j.state, j.expire_seconds])).toEqual([['created', 120]]);
    expect(await t.db.select().from(libraryRecords)).toEqual([]);
    expect(await t.db.select().from(credentials)).toEqual([]);
  });

  it('replays the same key and body with the same 202 and no second batch, whatever the JSON layout', async () => {
    const body = { items: [item({ reference: 'a' })] };
    const first = await submit(t, token, body, 'replay-key');
    const before = await batchCount(t.db);
    const again = await t.call('POST', BATCHES, { token, rawBody: JSON.stringify(body, null, 2), headers: { 'idempotency-key': 'replay-key' } });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.body.status);
    expect(await batchCount(t.db)).toBe(before);
    expect([...(await issueJobs(t.db, first.body.batchId))]).toHaveLength(1);
  });

  it('the same submission sent twice at once makes one batch; both answers name it', async () => {
    const body = { items: [item({ reference: 'race' })] };
    const before = await batchCount(t.db);
    const [a, b] = await Promise.all([submit(t, token, body, 'race-key'), submit(t, token, body, 'race-key')]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body).toEqual(b.body);
    expect(await batchCount(t.db)).toBe(before + 1);
    expect([...(await issueJobs(t.db, a.body.batchId))]).toHaveLength(1);
  });

  it('keys are per tenant: another tenant’s same key makes its own batch', async () => {
    const mine = await submit(t, token, { items: [item()] }, 'shared-key');
    const theirs = await submit(t, await t.token('tenantB'), { items: [item()] }, 'shared-key');
    expect(theirs.status).toBe(202);
    expect(theirs.body.batchId).not.toBe(mine.body.batchId);
  });

  it('accepts exactly MAX_BATCH_ITEMS items', async () => {
    const small = await startTestApp({ env: { MAX_BATCH_ITEMS: '3' } });
    try {
      const res = await submit(small, await small.token('tenantA'), { items: [item(), item(), item()] });
      expect(res.status).toBe(202);
      expect((await batchRow(small.db, res.body.batchId))!.itemCount).toBe(3);
    } finally {
      await small.close();
    }
  });
});

describe('GET /credentials/batches/{id}', () => {
  it('answers the projection, no-store, with every count key and the items in index order', async () => {
    const { body } = await submit(t, token, { items: [item({ reference: 'r0' }), item(), item({ reference: 'r2' })] }, undefined, { 'x-correlation-id': 'get-corr' });
    const res = await t.call('GET', body.status, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      id: body.batchId,
      state: 'QUEUED',
      counts: { total: 3, queued: 3, processing: 0, issued: 0, failed: 0, unknown: 0, cancelled: 0 },
      correlationId: 'get-corr',
      cancelRequestedAt: null,
      createdAt: expect.any(String),
      lastProgressAt: expect.any(String),
      settledAt: null,
      resolvedAt: null,
      expiresAt: null,
      version: 1,
      items: [
        { index: 0, reference: 'r0', state: 'QUEUED' },
        { index: 1, state: 'QUEUED' },
        { index: 2, reference: 'r2', state: 'QUEUED' },
      ],
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
  });

  it('a read during a worker’s commit sees the batch as of one instant, never as count drift', async () => {
    const { body } = await submit(t, token, { items: [item(), item()] });
    const worker = postgres(t.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      let read: Promise<Awaited<ReturnType<typeof t.call>>> | undefined;
      await worker.begin(async (tx) => {
        // The items table held: the read gets the batch row, then waits for the items until this commits.
        await tx`lock table credential_batch_items in access exclusive mode`;
        read = t.call('GET', body.status, { token });
        for (let i = 0; ; i++) {
          const [waiting] = await tx`select count(*)::int as n from pg_locks where relation = 'credential_batch_items'::regclass and not granted`;
          if (waiting!.n > 0) break;
          if (i > 200) throw new Error('the read never waited for the items');
          await new Promise((r) => setTimeout(r, 20));
        }
        // A worker's step: one item QUEUED → PROCESSING with its counters, in one transaction.
        await tx`update credential_batch_items set state = 'PROCESSING' where batch_id = ${body.batchId} and index = 0`;
        await tx`update credential_batches set queued_count = queued_count - 1, processing_count = processing_count + 1, version = version + 1 where id = ${body.batchId}`;
      });
      const res = await read!;
      expect(res.status, res.text).toBe(200);
      // The instant before the commit: counts and items agree.
      expect(res.body.counts).toMatchObject({ queued: 2, processing: 0 });
      expect(res.body.items.map((i: { state: string }) => i.state)).toEqual(['QUEUED', 'QUEUED']);
    } finally {
      await worker.end();
    }
  });
});

describe('POST /credentials/batches/{id}/cancel', () => {
  it('202 with the projection and the message; queued items CANCELLED; the repeat writes nothing', async () => {
    const { body } = await submit(t, token, { items: [item(), item()] });
    const res = await t.call('POST', `${body.status}/cancel`, { token });
    expect(res.status).toBe(202);
    expect(res.body.message).toBe('Queued items are cancelled. An item already processing may still be issued. Cancellation does not revoke any credentials.');
    expect(res.body).toMatchObject({
      id: body.batchId,
      state: 'QUEUED',
      counts: { total: 2, queued: 0, cancelled: 2 },
      items: [{ index: 0, state: 'CANCELLED' }, { index: 1, state: 'CANCELLED' }],
      // One write of the batch row: the request instant and the moved counters together.
      version: 2,
    });
    expect(new Date(res.body.cancelRequestedAt).toISOString()).toBe(res.body.cancelRequestedAt);
    const after = await batchRow(t.db, body.batchId);

    const repeat = await t.call('POST', `${body.status}/cancel`, { token });
    expect(repeat.status).toBe(202);
    expect(repeat.body.cancelRequestedAt).toBe(res.body.cancelRequestedAt);
    expect(await batchRow(t.db, body.batchId)).toEqual(after);
  });

  it('cancels deferred retries too and leaves issued and processing items as they are', async () => {
    const { body } = await submit(t, token, { items: [item(), item(), item()] });
    const [first, second] = await itemRows(t.db, body.batchId);
    await t.db.execute(sql`update credential_batch_items set state = 'PROCESSING' where id = ${first!.id}`);
    await t.db.execute(sql`update credential_batch_items set next_attempt_at = now() + interval '5 minutes' where id = ${second!.id}`);
    await t.db.execute(sql`update credential_batches set state = 'RUNNING', queued_count = 2, processing_count = 1 where id = ${body.batchId}`);
    const res = await t.call('POST', `${body.status}/cancel`, { token });
    expect(res.status).toBe(202);
    expect(res.body.state).toBe('RUNNING');
    expect(res.body.items.map((i: { state: string }) => i.state)).toEqual(['PROCESSING', 'CANCELLED', 'CANCELLED']);
    expect(res.body.counts).toMatchObject({ processing: 1, cancelled: 2, queued: 0 });
  });
});
