import { sql } from 'drizzle-orm';
import { integer, pgTable, serial } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { insertInSteps } from './bounded-steps.ts';

/** A table of this test's own, and a count of the INSERT statements that reached it. */
const written = pgTable('insert_steps_written', { seq: serial('seq').primaryKey(), n: integer('n').notNull() });

let database: TestDatabase;
let handle: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.url, { max: 2 });
  await handle.db.execute(sql.raw(`
    create table insert_steps_written (seq serial primary key, n integer not null);
    create table insert_steps_statements (count integer not null);
    insert into insert_steps_statements values (0);
    create function insert_steps_count() returns trigger language plpgsql as $$
      begin update insert_steps_statements set count = count + 1; return null; end $$;
    create trigger insert_steps_count after insert on insert_steps_written for each statement execute function insert_steps_count();`));
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

const state = async () => ({
  rows: (await handle.db.select({ n: written.n }).from(written).orderBy(written.seq)).map((r) => r.n),
  statements: (await handle.db.execute<{ count: number }>(sql`select count from insert_steps_statements`))[0]!.count,
});

describe('insertInSteps', () => {
  it('writes the rows in order, a given number to a statement, in the caller’s transaction; none is no statement', async () => {
    const rows = Array.from({ length: 120 }, (_, n) => ({ n }));
    await handle.db.transaction((tx) => insertInSteps(tx, written, rows, 50));
    expect(await state()).toEqual({ rows: rows.map((r) => r.n), statements: 3 });

    await insertInSteps(handle.db, written, [], 50);
    expect((await state()).statements).toBe(3);

    // All or none: the caller's transaction rolls every step back.
    await expect(
      handle.db.transaction(async (tx) => {
        await insertInSteps(tx, written, [{ n: 1000 }, { n: 1001 }, { n: 1002 }], 2);
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    expect(await state()).toEqual({ rows: rows.map((r) => r.n), statements: 3 });
  });
});
