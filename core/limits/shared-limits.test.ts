import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { admitVerification } from '../verification/verification-admission.ts';
import type { AdmissionLimits } from './admission.ts';
import { takeClientToken } from './client-rate-limit.ts';
import { enterConcurrency, leaveConcurrency } from './concurrency-lease.ts';

/** The admission statement the verify route runs (one prepared statement with its VC-instance read). */
const admit = async (db: DatabaseHandle['db'], limits: AdmissionLimits) => (await admitVerification(db, limits)).admission;

/** Two clients of one database, as two processes (or isolates) would have. */
let database: TestDatabase;
let one: DatabaseHandle;
let two: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  one = connectDatabase(database.url, { max: 4 });
  two = connectDatabase(database.url, { max: 4 });
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await database?.drop();
});

/** Moves a bucket's last update back, as if that much time had passed. */
const pass = (scope: string, client: string, seconds: number) =>
  one.db.execute(sql`update client_rate_buckets set updated_at = updated_at - ${seconds} * interval '1 second' where scope = ${scope} and client = ${client}`);

/**
 * Holds a bucket's clock: its last update moved past now, so no refill accrues however long the next call takes
 * (a loaded machine must not turn a burst into a steady rate). `pass` then counts from that last update.
 */
const hold = (scope: string, client: string) =>
  one.db.execute(sql`update client_rate_buckets set updated_at = now() + interval '1 hour' where scope = ${scope} and client = ${client}`);

describe('takeClientToken (a token bucket in PostgreSQL)', () => {
  it('a burst of a minute’s allowance passes whichever client of the database counts it; then one refill is waited for; clients and scopes are counted apart', async () => {
    for (let i = 0; i < 60; i++) {
      expect(await takeClientToken((i % 2 ? one : two).db, 's1', 'a', 60)).toBe(0);
      await hold('s1', 'a');
    }
    expect(await takeClientToken(one.db, 's1', 'a', 60)).toBe(1);
    await hold('s1', 'a');
    expect(await takeClientToken(two.db, 's1', 'a', 60)).toBe(1);
    expect(await takeClientToken(one.db, 's1', 'b', 60)).toBe(0);
    expect(await takeClientToken(one.db, 's2', 'a', 60)).toBe(0);
    await pass('s1', 'a', 1);
    expect(await takeClientToken(two.db, 's1', 'a', 60)).toBe(0);
    expect(await takeClientToken(one.db, 's1', 'a', 60)).toBe(1);
  });

  it('Retry-After is the whole seconds until one request is allowed, and a steady client at the limit is never refused', async () => {
    expect([await takeClientToken(one.db, 's1', 'c', 2), await takeClientToken(two.db, 's1', 'c', 2)]).toEqual([0, 0]);
    expect(await takeClientToken(one.db, 's1', 'c', 2)).toBe(30);
    await pass('s1', 'c', 29);
    expect(await takeClientToken(one.db, 's1', 'c', 2)).toBe(1);
    await pass('s1', 'c', 1);
    expect(await takeClientToken(one.db, 's1', 'c', 2)).toBe(0);
    for (let i = 0; i < 5; i++) {
      await pass('s1', 'c', 30);
      expect(await takeClientToken(i % 2 ? one.db : two.db, 's1', 'c', 2)).toBe(0);
    }
  });

  it('an idle client gets back no more than a minute’s allowance', async () => {
    expect(await takeClientToken(one.db, 's1', 'd', 3)).toBe(0);
    await pass('s1', 'd', 3600);
    expect([await takeClientToken(one.db, 's1', 'd', 3), await takeClientToken(one.db, 's1', 'd', 3), await takeClientToken(one.db, 's1', 'd', 3)]).toEqual([0, 0, 0]);
    expect(await takeClientToken(one.db, 's1', 'd', 3)).toBeGreaterThan(0);
  });

  it('requests counted at the same moment from both clients never pass more than the allowance', async () => {
    const waits = await Promise.all(Array.from({ length: 40 }, (_, i) => takeClientToken((i % 2 ? one : two).db, 's3', 'e', 10)));
    expect(waits.filter((w) => w === 0)).toHaveLength(10);
  });
});

describe('enterConcurrency (leases in PostgreSQL)', () => {
  it('at most `limit` holders across both clients; leaving frees a slot', async () => {
    const first = await enterConcurrency(one.db, 'v1', 2, 60);
    const second = await enterConcurrency(two.db, 'v1', 2, 60);
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(await enterConcurrency(one.db, 'v1', 2, 60)).toBeUndefined();
    expect(await enterConcurrency(two.db, 'v2', 2, 60)).toBeTruthy();
    await leaveConcurrency(two.db, first!);
    const third = await enterConcurrency(two.db, 'v1', 2, 60);
    expect(third).toBeTruthy();
    expect(await enterConcurrency(one.db, 'v1', 2, 60)).toBeUndefined();
    await leaveConcurrency(one.db, second!);
    await leaveConcurrency(one.db, third!);
  });

  it('callers entering at the same moment from both clients get exactly `limit` leases', async () => {
    const leases = await Promise.all(Array.from({ length: 12 }, (_, i) => enterConcurrency((i % 2 ? one : two).db, 'v3', 3, 60)));
    expect(leases.filter(Boolean)).toHaveLength(3);
  });

  it('a lease whose holder died stops counting when it expires, and is cleared', async () => {
    const held = await enterConcurrency(one.db, 'v4', 1, 60);
    expect(await enterConcurrency(two.db, 'v4', 1, 60)).toBeUndefined();
    await one.db.execute(sql`update concurrency_leases set expires_at = now() - interval '1 second' where id = ${held!}`);
    const next = await enterConcurrency(two.db, 'v4', 1, 60);
    expect(next).toBeTruthy();
    const rows = await one.db.execute<{ id: string }>(sql`select id from concurrency_leases where scope = 'v4'`);
    expect(rows.map((r) => r.id)).toEqual([next]);
  });
});

describe('admit (the token and the lease in one statement)', () => {
  const limits = (client: string, perMinute: number, scope: string, limit: number) => ({ rate: { scope: 'r1', client, perMinute }, lease: { scope, limit, seconds: 60 } });

  it('counts the client’s token, then takes a lease: refused by the rate with the seconds to wait (no lease taken), or busy (the token still counted)', async () => {
    const first = await admit(one.db, limits('a', 2, 'w1', 1));
    expect(first).toEqual({ admitted: true, lease: expect.any(String) });
    expect(await admit(two.db, limits('b', 2, 'w1', 1))).toEqual({ admitted: false, busy: true });
    // b's refused admission still took b's token: one left of two.
    expect(await admit(two.db, limits('b', 2, 'w1', 1))).toEqual({ admitted: false, busy: true });
    expect(await admit(two.db, limits('b', 2, 'w1', 1))).toEqual({ admitted: false, busy: false, retryAfterSeconds: 30 });
    // The same wait as takeClientToken's, on the same bucket.
    expect(await takeClientToken(one.db, 'r1', 'b', 2)).toBe(30);
    await leaveConcurrency(one.db, (first as { lease: string }).lease);
    const rows = await one.db.execute<{ n: number }>(sql`select count(*)::int as n from concurrency_leases where scope = 'w1'`);
    expect(rows[0]!.n).toBe(0);
    expect(await admit(one.db, limits('c', 2, 'w1', 1))).toEqual({ admitted: true, lease: expect.any(String) });
  });

  it('admissions at the same moment from both clients get exactly `limit` leases, and a client never more than its allowance', async () => {
    const many = await Promise.all(Array.from({ length: 16 }, (_, i) => admit((i % 2 ? one : two).db, limits(`d${i}`, 60, 'w2', 3))));
    expect(many.filter((a) => a.admitted)).toHaveLength(3);
    expect(many.filter((a) => !a.admitted && a.busy)).toHaveLength(13);
    const oneClient = await Promise.all(Array.from({ length: 12 }, (_, i) => admit((i % 2 ? one : two).db, limits('e', 5, 'w3', 100))));
    expect(oneClient.filter((a) => a.admitted)).toHaveLength(5);
    expect(oneClient.filter((a) => !a.admitted && !a.busy && a.retryAfterSeconds >= 1)).toHaveLength(7);
  });

  it('a lease whose holder died stops counting when it expires, and is cleared', async () => {
    const held = await admit(one.db, limits('f', 60, 'w4', 1));
    expect(await admit(two.db, limits('f', 60, 'w4', 1))).toEqual({ admitted: false, busy: true });
    await one.db.execute(sql`update concurrency_leases set expires_at = now() - interval '1 second' where id = ${(held as { lease: string }).lease}`);
    const next = await admit(two.db, limits('f', 60, 'w4', 1));
    expect(next.admitted).toBe(true);
    const rows = await one.db.execute<{ id: string }>(sql`select id from concurrency_leases where scope = 'w4'`);
    expect(rows.map((r) => r.id)).toEqual([(next as { lease: string }).lease]);
  });
});
