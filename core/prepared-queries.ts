import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';

/** The caller's tenant in a prepared statement: every prepared read takes it as `{ tenantId }`. */
export const tenantParam = sql.placeholder('tenantId');

/**
 * Hot reads built once per database handle and reused as prepared statements: drizzle then skips
 * rebuilding the SQL on every request, and PostgreSQL reuses the plan. Values go in as placeholders.
 */
const cache = new WeakMap<Queryable, Map<string, unknown>>();

/** `name`'s statement for `db`, built by `build` the first time (a transaction gets its own, for its lifetime). */
export const prepared = <Q extends Queryable, T>(db: Q, name: string, build: (db: Q) => T): T => {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) statements.set(name, (statement = build(db)));
  return statement;
};
