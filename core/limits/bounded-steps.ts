import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.ts';

/**
 * Work on a large request in bounded steps (issue 29 §1): between two steps the event loop is given
 * back, so another tenant's request waits at most one step, never for the whole body. Web-standard
 * (a zero-delay timer, as on the edge). A step is measured in units the caller counts (items,
 * characters, nodes); `spend` yields once a step's worth has been spent.
 */
export const yieldToOthers = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export interface StepBudget {
  /** Counts `units` of work done; yields to the event loop when a step's worth has been spent. */
  spend(units: number): Promise<void> | undefined;
}

export const stepBudget = (unitsPerStep: number): StepBudget => {
  let spent = 0;
  return {
    spend(units) {
      spent += units;
      if (spent < unitsPerStep) return undefined;
      spent = 0;
      return yieldToOthers();
    },
  };
};

/** `work` over `items` in order, `perStep` at a time (those run together), yielding between steps. */
export const mapInSteps = async <T, R>(items: readonly T[], perStep: number, work: (item: T, index: number) => Promise<R> | R): Promise<R[]> => {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += perStep) {
    if (start > 0) await yieldToOthers();
    results.push(...(await Promise.all(items.slice(start, start + perStep).map((item, i) => work(item, start + i)))));
  }
  return results;
};

/**
 * `rows` into `table`, `rowsPerStatement` to an INSERT, one statement after another in `db` (a
 * transaction's, for all or none), in order: one statement's parameters, built and sent, are a bounded
 * step. The caller says why its size is what it is.
 */
export const insertInSteps = async <T extends PgTable>(db: Queryable, table: T, rows: readonly PgInsertValue<T>[], rowsPerStatement: number): Promise<void> => {
  for (let start = 0; start < rows.length; start += rowsPerStatement) await db.insert(table).values(rows.slice(start, start + rowsPerStatement));
};
