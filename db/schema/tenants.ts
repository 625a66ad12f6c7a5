import { relations } from 'drizzle-orm';
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.ts';

/** A tenant owns master data. The system tenant (fixed id) owns the defaults visible to everyone. */
export const tenants = pgTable('tenants', {
  id: idColumn(),
  name: text('name').notNull(),
  /** Closed mode: the IDP group value that maps to this tenant. */
  externalGroupId: text('external_group_id').unique(),
  ...timestamps,
});

/** A principal (browser user or service account) known by its IDP subject. */
export const users = pgTable(
  'users',
  {
    id: idColumn(),
    subject: text('subject').notNull().unique(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name'),
    email: text('email'),
    ...timestamps,
  },
  (t) => [index('users_tenant_idx').on(t.tenantId)],
);

/**
 * Server-side browser sessions. The cookie carries a random token; only its SHA-256 is stored,
 * so a database read does not yield usable sessions. The refresh token is encrypted at rest.
 */
export const browserSessions = pgTable(
  'browser_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    refreshTokenEncrypted: text('refresh_token_encrypted'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('browser_sessions_expires_idx').on(t.expiresAt)],
);

/** Small key/value facts about the deployment, e.g. the encryption-key check value. */
export const systemMeta = pgTable('system_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const tenantsRelations = relations(tenants, ({ many }) => ({ users: many(users) }));
export const usersRelations = relations(users, ({ one }) => ({
  tenant: one(tenants, { fields: [users.tenantId], references: [tenants.id] }),
}));
