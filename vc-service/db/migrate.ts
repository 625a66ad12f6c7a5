import { readFile } from 'node:fs/promises';
import type postgres from 'postgres';

const MIGRATIONS = ['001_initial.sql', '002_key_rotation.sql', '003_correlated_events.sql'];
/** Serialises start-up migrations of several processes (any 64-bit number of our own). */
const MIGRATION_LOCK = 0x7663_5f73_7663;

/**
 * Brings the `vc_service` schema up to date at start: each file runs once, in order, recorded in
 * `vc_service.migrations`, under an advisory lock so parallel starts do not race.
 */
export const migrateVcSchema = async (sql: postgres.Sql): Promise<void> => {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx.unsafe('create schema if not exists vc_service');
    await tx.unsafe('create table if not exists vc_service.migrations (name text primary key, applied_at timestamptz not null default now())');
    const applied = new Set((await tx<{ name: string }[]>`select name from vc_service.migrations`).map((r) => r.name));
    for (const name of MIGRATIONS) {
      if (applied.has(name)) continue;
      await tx.unsafe(await readFile(new URL(name, import.meta.url), 'utf8'));
      await tx`insert into vc_service.migrations (name) values (${name})`;
    }
  });
};
