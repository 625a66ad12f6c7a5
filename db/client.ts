import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.ts';

export type Database = PostgresJsDatabase<typeof schema>;
/** A database handle or an open transaction on it: domain queries accept either. */
export type Queryable = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  close: () => Promise<void>;
}

/** One pool per process (or one short-lived client per request on edge runtimes: max 1). */
export const connectDatabase = (url: string, options: { max?: number } = {}): DatabaseHandle => {
  const sql = postgres(url, { max: options.max ?? 10, onnotice: () => {}, connection: { application_name: 'css' } });
  return { db: drizzle(sql, { schema }), close: () => sql.end({ timeout: 5 }) };
};
