import { and, asc, eq, fillPlaceholders, getTableColumns, isNull, lte, or, sql, type Column, type Query, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.ts';
import { credentialBatches, credentialBatchItems, type BatchItemState } from '../../db/schema/credential-batches.ts';

export type BatchRow = typeof credentialBatches.$inferSelect;
export type BatchItemRow = typeof credentialBatchItems.$inferSelect;

/** The stored counter of each item state: one place maps states to columns. */
export const COUNTER_OF = {
  QUEUED: 'queuedCount',
  PROCESSING: 'processingCount',
  ISSUED: 'issuedCount',
  FAILED: 'failedCount',
  OUTCOME_UNKNOWN: 'unknownCount',
  CANCELLED: 'cancelledCount',
} as const satisfies Record<BatchItemState, keyof BatchRow>;

const counterColumn = (state: BatchItemState) => credentialBatches[COUNTER_OF[state]];

/** A tenant's batch, or undefined for an unknown id and another tenant's alike. */
export const findTenantBatch = async (db: Queryable, tenantId: string, batchId: string): Promise<BatchRow | undefined> => {
  const [row] = await db
    .select()
    .from(credentialBatches)
    .where(and(eq(credentialBatches.id, batchId), eq(credentialBatches.tenantId, tenantId)));
  return row;
};

/** As `findTenantBatch`, holding the row until the transaction ends: state changes of one batch queue behind each other. */
export const lockTenantBatch = async (tx: Queryable, tenantId: string, batchId: string): Promise<BatchRow | undefined> => {
  const [row] = await tx
    .select()
    .from(credentialBatches)
    .where(and(eq(credentialBatches.id, batchId), eq(credentialBatches.tenantId, tenantId)))
    .for('update');
  return row;
};

/** A batch's items in index order. */
export const findBatchItems = (db: Queryable, batchId: string): Promise<BatchItemRow[]> =>
  db.select().from(credentialBatchItems).where(eq(credentialBatchItems.batchId, batchId)).orderBy(asc(credentialBatchItems.index));

/** A batch's first `limit` QUEUED items due at `at` (no retry time, or one past), in index order; read only, nothing locked. */
export const findDueItems = (db: Queryable, batchId: string, at: Date, limit: number): Promise<BatchItemRow[]> => dueItemsQuery(db, batchId, at, limit);

/** The statement of `findDueItems` (its text and parameters through `toSQL()`, e.g. for EXPLAIN). */
export const dueItemsQuery = (db: Queryable, batchId: string, at: Date, limit: number) =>
  db
    .select()
    .from(credentialBatchItems)
    .where(
      and(
        eq(credentialBatchItems.batchId, batchId),
        // A literal, not a parameter: the planner then reads credential_batch_items_queued_idx (queued items only).
        sql`${credentialBatchItems.state} = 'QUEUED'`,
        or(isNull(credentialBatchItems.nextAttemptAt), lte(credentialBatchItems.nextAttemptAt, at)),
      ),
    )
    .orderBy(asc(credentialBatchItems.index))
    .limit(limit);

/** One item of a tenant's batch by its zero-based index. */
export const findTenantBatchItem = async (
  db: Queryable,
  tenantId: string,
  batchId: string,
  index: number,
): Promise<BatchItemRow | undefined> => {
  const [row] = await db
    .select()
    .from(credentialBatchItems)
    .where(and(eq(credentialBatchItems.batchId, batchId), eq(credentialBatchItems.tenantId, tenantId), eq(credentialBatchItems.index, index)));
  return row;
};

/** The stored state of every item, counted: compared with the batch's counters on every read. */
export const countItemsByState = async (db: Queryable, batchId: string): Promise<Record<BatchItemState, number>> => {
  const rows = await db
    .select({ state: credentialBatchItems.state, n: sql<number>`count(*)::int` })
    .from(credentialBatchItems)
    .where(eq(credentialBatchItems.batchId, batchId))
    .groupBy(credentialBatchItems.state);
  const counts: Record<BatchItemState, number> = { QUEUED: 0, PROCESSING: 0, ISSUED: 0, FAILED: 0, OUTCOME_UNKNOWN: 0, CANCELLED: 0 };
  for (const row of rows) counts[row.state] = row.n;
  return counts;
};

export type BatchChange = Partial<Pick<BatchRow, 'state' | 'cancelRequestedAt' | 'settledAt' | 'resolvedAt' | 'expiresAt' | 'claimToken' | 'claimExpiresAt'>>;

/**
 * Every state change of a batch or of one of its items goes through here, in the transaction of
 * the change: the version moves by one and `lastProgressAt` to now. The version is the fence
 * operator resolution relies on: a late worker write makes a stale resolution fail.
 */
export const bumpBatchVersion = async (
  tx: Queryable,
  batchId: string,
  change: BatchChange = {},
  counters: Partial<Record<(typeof COUNTER_OF)[BatchItemState], SQL>> = {},
): Promise<BatchRow> => {
  const [row] = await tx
    .update(credentialBatches)
    .set({ ...change, ...counters, version: sql`${credentialBatches.version} + 1`, lastProgressAt: new Date() })
    .where(eq(credentialBatches.id, batchId))
    .returning();
  if (!row) throw new Error(`Batch ${batchId} vanished during a state change`);
  return row;
};

export type ItemChange = Partial<
  Pick<
    BatchItemRow,
    | 'credentialId'
    | 'warnings'
    | 'errorCode'
    | 'errorMessage'
    | 'resolutionReason'
    | 'resolutionEvidence'
    | 'resolvedAt'
    | 'attemptCount'
    | 'nextAttemptAt'
    | 'attemptToken'
  >
>;

export interface ItemTransition {
  batchId: string;
  /** The item: by id, or the batch's first QUEUED item due at `firstDueAt` (no retry time, or one past), in index order. */
  itemId: string | { firstDueAt: Date };
  /** The states the item may be in for the change to apply; otherwise nothing is written. */
  from: readonly BatchItemState[];
  to: BatchItemState;
  /** When given, the change applies only to the attempt holding this token. */
  attemptToken?: string;
  set?: ItemChange;
  /** A change of the batch row written with the counters and the version (e.g. the claim's new expiry). */
  batchChange?: BatchChange;
  /** The item's `attemptCount` goes up by one (a claim). */
  countAttempt?: boolean;
}

/** A row as `to_jsonb` gives it, read as drizzle reads that table's rows (property names, Dates). */
const rowFromJson = <T>(table: typeof credentialBatches | typeof credentialBatchItems, json: Record<string, unknown>): T => {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T;
};

const literal = (state: BatchItemState) => {
  if (!(state in COUNTER_OF)) throw new Error(`Not an item state: ${state}`);
  return sql.raw(`'${state}'`);
};
const columnName = (column: Column) => sql.identifier(column.name);

/** The statement of a transition, by its shape (states, columns written, token or not), built once per process. */
const builtMoves = new Map<string, Query>();

/**
 * One statement: the item locked (`FOR UPDATE`) and moved, then, only when it moved, both counters, the
 * version, `lastProgressAt` and the batch change written to the batch row: the item before the batch row,
 * as the reads and writes it replaces took them (callers that may meet another writer of the same items
 * hold the batch row already, as cancellation takes it first; an item in flight is touched by no other
 * writer). Every value is a placeholder, so it is built once per shape.
 */
const moveStatement = (t: ItemTransition, setKeys: string[], batchKeys: string[]): Query => {
  const firstDue = typeof t.itemId !== 'string';
  const shape = [t.from.join(','), t.to, setKeys.join(','), batchKeys.join(','), t.attemptToken !== undefined, firstDue, t.countAttempt === true].join('|');
  let built = builtMoves.get(shape);
  if (built) return built;
  const items = credentialBatchItems;
  const batches = credentialBatches;
  const itemColumn = (key: string) => (items as unknown as Record<string, Column>)[key]!;
  const batchColumn = (key: string) => (batches as unknown as Record<string, Column>)[key]!;
  const itemSets = [
    sql`${columnName(items.state)} = ${literal(t.to)}`,
    ...setKeys.map((key) => sql`${columnName(itemColumn(key))} = ${sql.placeholder(`set.${key}`)}`),
    ...(t.countAttempt ? [sql`${columnName(items.attemptCount)} = ${items}.${columnName(items.attemptCount)} + 1`] : []),
    sql`${columnName(items.updatedAt)} = ${sql.placeholder('now')}`,
  ];
  // Unchanged counters when the item was already in `to`; otherwise its state's counter down, `to`'s up.
  const counterSets = (Object.keys(COUNTER_OF) as BatchItemState[]).flatMap((state) => {
    const column = columnName(counterColumn(state));
    if (state === t.to) return [sql`${column} = ${column} + (select count(*)::int from moved where before_state <> ${literal(t.to)})`];
    if (t.from.includes(state)) return [sql`${column} = ${column} - (select count(*)::int from moved where before_state = ${literal(state)})`];
    return [];
  });
  const batchSets = [
    ...counterSets,
    ...batchKeys.map((key) => sql`${columnName(batchColumn(key))} = ${sql.placeholder(`batch.${key}`)}`),
    sql`${columnName(batches.version)} = ${columnName(batches.version)} + 1`,
    sql`${columnName(batches.lastProgressAt)} = ${sql.placeholder('now')}`,
    sql`${columnName(batches.updatedAt)} = ${sql.placeholder('now')}`,
  ];
  const which = firstDue
    ? sql`and (${columnName(items.nextAttemptAt)} is null or ${columnName(items.nextAttemptAt)} <= ${sql.placeholder('dueAt')})`
    : sql`and ${columnName(items.id)} = ${sql.placeholder('itemId')}`;
  const statement = sql`with old as (
      select ${columnName(items.id)} as id, ${columnName(items.state)} as state from ${items}
      where ${columnName(items.batchId)} = ${sql.placeholder('batchId')} ${which}
        and ${columnName(items.state)} in (${sql.join(t.from.map(literal), sql`, `)})
        ${t.attemptToken !== undefined ? sql`and ${columnName(items.attemptToken)} = ${sql.placeholder('attemptToken')}` : sql``}
      ${firstDue ? sql`order by ${columnName(items.index)} limit 1` : sql``}
      for update
    ), moved as (
      update ${items} set ${sql.join(itemSets, sql`, `)} from old where ${items}.${columnName(items.id)} = old.id
      returning ${items}.*, old.state as before_state
    ), batch as (
      update ${batches} set ${sql.join(batchSets, sql`, `)}
      where ${columnName(batches.id)} = ${sql.placeholder('batchId')} and exists (select 1 from moved)
      returning ${batches}.*
    )
    select (select to_jsonb(moved) from moved) as item, (select to_jsonb(batch) from batch) as batch`;
  built = new PgDialect().sqlToQuery(statement);
  builtMoves.set(shape, built);
  return built;
};

/** A transition's statement (built once per shape) and the values of its placeholders. */
const moveOf = (t: ItemTransition): { query: Query; values: Record<string, unknown> } => {
  const set = Object.entries(t.set ?? {}).filter(([, value]) => value !== undefined);
  const change = Object.entries(t.batchChange ?? {}).filter(([, value]) => value !== undefined);
  const query = moveStatement(t, set.map(([key]) => key), change.map(([key]) => key));
  const driverValue = (column: Column, value: unknown) => (value === null ? null : column.mapToDriverValue(value));
  const itemColumns = getTableColumns(credentialBatchItems) as Record<string, Column>;
  const batchColumns = getTableColumns(credentialBatches) as Record<string, Column>;
  const values: Record<string, unknown> = {
    ...(typeof t.itemId === 'string' ? { itemId: t.itemId } : { dueAt: t.itemId.firstDueAt.toISOString() }),
    batchId: t.batchId,
    now: new Date().toISOString(),
    ...(t.attemptToken !== undefined ? { attemptToken: t.attemptToken } : {}),
  };
  for (const [key, value] of set) values[`set.${key}`] = driverValue(itemColumns[key]!, value);
  for (const [key, value] of change) values[`batch.${key}`] = driverValue(batchColumns[key]!, value);
  return { query, values };
};

/** A transition's statement as text and parameters (e.g. for EXPLAIN); `transitionItem` runs the same statement. */
export const moveStatementText = (t: ItemTransition): { sql: string; params: unknown[] } => {
  const { query, values } = moveOf(t);
  return { sql: query.sql, params: fillPlaceholders(query.params, values) };
};

/**
 * Moves one item from one of `from` to `to` in the caller's transaction, in one statement: the item
 * row locked and written, and with it both counters, the batch version and `batchChange` in the batch
 * row. Returns the item's state before, the item and the batch after, or undefined (and writes
 * nothing) when the item is no longer in an expected state or the attempt token differs.
 */
export const transitionItem = async (
  tx: Queryable,
  t: ItemTransition,
): Promise<{ before: Pick<BatchItemRow, 'id' | 'state'>; after: BatchItemRow; batch: BatchRow } | undefined> => {
  const { query, values } = moveOf(t);
  // Any name turns on postgres.js's `prepare`: each shape's text is prepared once per connection (no Parse, Describe and plan per move).
  const [row] = (await tx._.session.prepareQuery(query, undefined, 'batch-item-move', false).execute(values)) as { item: Record<string, unknown> | null; batch: Record<string, unknown> | null }[];
  if (!row?.item) return undefined;
  if (!row.batch) throw new Error(`Batch ${t.batchId} vanished during a state change`);
  const after = rowFromJson<BatchItemRow>(credentialBatchItems, row.item);
  return { before: { id: after.id, state: row.item.before_state as BatchItemState }, after, batch: rowFromJson<BatchRow>(credentialBatches, row.batch) };
};

/**
 * Moves every item of a batch in `from` to `to` at once (cancel: all queued items), with the
 * counters, `batchChange` and one version bump. Returns the batch row after the change, or
 * undefined (and writes nothing) when no item moved.
 */
export const transitionAllItems = async (
  tx: Queryable,
  batchId: string,
  from: BatchItemState,
  to: BatchItemState,
  set: ItemChange = {},
  batchChange: BatchChange = {},
): Promise<BatchRow | undefined> => {
  const moved = await tx
    .update(credentialBatchItems)
    .set({ ...set, state: to })
    .where(and(eq(credentialBatchItems.batchId, batchId), eq(credentialBatchItems.state, from)))
    .returning({ id: credentialBatchItems.id });
  if (moved.length === 0) return undefined;
  return bumpBatchVersion(tx, batchId, batchChange, {
    [COUNTER_OF[from]]: sql`${counterColumn(from)} - ${moved.length}`,
    [COUNTER_OF[to]]: sql`${counterColumn(to)} + ${moved.length}`,
  });
};
