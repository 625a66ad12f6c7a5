import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { RelationalGraph } from './relational-graphs.ts';
import * as schema from './schema/index.ts';

export type Database = PostgresJsDatabase<typeof schema>;
/** A database handle or an open transaction on it: domain queries accept either. */
export type Queryable = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  close: () => Promise<void>;
}

/**
 * A client whose relational API (`db.query`) knows only the tables of `graph`: an edge group's per-request
 * client (max 1), so that its bundle leaves out the rest of the schema. It is typed as the whole schema's
 * `Database`, so that domain code takes it as it is; test/edge/relational-graphs.test.ts checks that no edge
 * group queries a table outside its graph.
 */
export const connectDatabaseWithGraph = (url: string, graph: RelationalGraph, options: { max?: number } = {}): DatabaseHandle => {
  const sql = postgres(url, { max: options.max ?? 10, onnotice: () => {}, connection: { application_name: 'css' } });
  return { db: drizzle(sql, { schema: graph as typeof schema }), close: () => sql.end({ timeout: 5 }) };
};

/** One pool per process, the relational API over the whole schema (Node processes). */
export const connectDatabase = (url: string, options: { max?: number } = {}): DatabaseHandle => connectDatabaseWithGraph(url, schema, options);
