import { boolean, doublePrecision, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Limits on public routes that every web process and edge isolate share (not tenant data: callers are
 * strangers, counted by client address). One token bucket per limit and client: `tokens` as of
 * `updatedAt`, and whether the last request it counted was let through.
 */
export const clientRateBuckets = pgTable(
  'client_rate_buckets',
  {
    scope: text('scope').notNull(),
    client: text('client').notNull(),
    tokens: doublePrecision('tokens').notNull(),
    granted: boolean('granted').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.client] }), index('client_rate_buckets_updated_at_idx').on(t.updatedAt)],
);

/**
 * Work in progress under a global concurrency limit: one lease per holder, until it ends or, should its
 * process die holding it, until `expiresAt`.
 */
export const concurrencyLeases = pgTable(
  'concurrency_leases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scope: text('scope').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('concurrency_leases_scope_expires_at_idx').on(t.scope, t.expiresAt)],
);
