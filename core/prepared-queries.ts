import type { Database } from '../db/client.ts';

/**
 * Hot reads built once per database handle and reused as prepared statements: drizzle then skips
 * rebuilding the SQL on every request, and PostgreSQL reuses the plan. Values go in as placeholders.
 */
const cache = new WeakMap<Database, Map<string, unknown>>();

export const prepared = <T>(db: Database, name: string, build: (db: Database) => T): T => {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) statements.set(name, (statement = build(db)));
  return statement;
};
