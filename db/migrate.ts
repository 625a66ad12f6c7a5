import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import type { Database } from './client.ts';

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies the generated SQL migrations in `db/migrations/` that the database has not seen yet. */
export const applyMigrations = (db: Database): Promise<void> => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
