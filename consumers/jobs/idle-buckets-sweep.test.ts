import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forgetIdleBuckets, takeClientToken } from '../../core/limits/client-rate-limit.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { connectDatabase, type DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { runJob, startTestWorker, testWorkerDeps } from '../../test/rig/jobs.ts';
import { reconcileBatchesConsumer } from './reconcile-batches.ts';

const logger = createLogger('error');

/** Two clients of one database: a request's and the worker's. */
let database: TestDatabase;
let one: DatabaseHandle;
let two: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  one = connectDatabase(database.url, { max: 2 });
  two = connectDatabase(database.url, { max: 2 });
  // The reconcile job reads pg-boss's tables: a worker started once makes them.
  await (await startTestWorker(database.url, [], logger)).stop();
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await database?.drop();
});
beforeEach(() => one.db.execute(sql`delete from client_rate_buckets`));

/** A client's bucket, last used `secondsAgo`. */
const bucket = async (client: string, secondsAgo: number) => {
  await takeClientToken(one.db, 'r', client, 60);
  await one.db.execute(sql`update client_rate_buckets set updated_at = now() - ${secondsAgo} * interval '1 second' where scope = 'r' and client = ${client}`);
};
const clients = async () => (await one.db.execute<{ client: string }>(sql`select client from client_rate_buckets order by client`)).map((r) => r.client);

describe('idle token buckets, forgotten by credentials.reconcile-batches', () => {
  it('forgets buckets idle past 2 minutes, a batch size per statement until none is left; live buckets stay', async () => {
    for (const [i, client] of ['idle1', 'idle2', 'idle3', 'idle4', 'idle5'].entries()) await bucket(client, 130 + 100 * i);
    await bucket('live1', 100);
    await takeClientToken(one.db, 'r', 'live2', 60);

    // One statement forgets at most its limit, oldest first.
    const [step] = await one.db.execute<{ forgotten: number }>(sql`select limits_forget_idle_buckets(2) as forgotten`);
    expect(step!.forgotten).toBe(2);
    expect(await clients()).toEqual(['idle1', 'idle2', 'idle3', 'live1', 'live2']);

    await runJob(reconcileBatchesConsumer, {}, testWorkerDeps(two.db, logger, undefined, { LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE: '2' }));
    expect(await clients()).toEqual(['live1', 'live2']);
    // A forgotten client starts afresh with a full minute's allowance, as its full bucket would have given it.
    await takeClientToken(one.db, 'r', 'idle1', 60);
    const [fresh] = await one.db.execute<{ tokens: number }>(sql`select tokens from client_rate_buckets where client = 'idle1'`);
    expect(fresh!.tokens).toBe(59);
  });

  it('skips a bucket a request holds (never waits for it) and keeps it', async () => {
    await bucket('held', 300);
    await bucket('free', 300);
    const forgotten = await one.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from client_rate_buckets where client = 'held' for update`);
      return forgetIdleBuckets(two.db, 10);
    });
    expect(forgotten).toBe(1);
    expect(await clients()).toEqual(['held']);
  });

  it('admission no longer forgets idle buckets: a thousand admissions and token takes leave them to the sweep', async () => {
    await bucket('idle', 300);
    // 0019 forgot them in one call in 64: a thousand calls would have (all but surely) forgotten them.
    await one.db.execute(sql`select count(*) from generate_series(1, 1000) g, limits_admit('r', 'a' || g, 60, 'w', 0, 60)`);
    await one.db.execute(sql`select count(*) from generate_series(1, 1000) g, limits_take_client_token('r', 't' || g, 60)`);
    expect(await clients()).toContain('idle');
    await runJob(reconcileBatchesConsumer, {}, testWorkerDeps(two.db, logger));
    expect(await clients()).not.toContain('idle');
  });
});
