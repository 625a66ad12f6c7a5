import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { tenants } from './tenants.ts';

/**
 * The read-only conformity catalogue (UNTP ConformityScheme documents): schemes, their profiles and
 * criteria, keyed by canonical URI per owner; the system's entries win over a tenant's for one URI.
 */
const owner = () =>
  text('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

export const cvcSchemes = pgTable(
  'cvc_schemes',
  {
    tenantId: owner(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    specVersion: text('spec_version'),
    owner: jsonb('owner'),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export const cvcProfiles = pgTable(
  'cvc_profiles',
  {
    tenantId: owner(),
    id: text('id').notNull(),
    schemeId: text('scheme_id').notNull(),
    name: text('name').notNull(),
    version: text('version'),
    status: text('status'),
    validFrom: text('valid_from'),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('cvc_profiles_scheme_idx').on(t.schemeId)],
);

export const cvcCriteria = pgTable(
  'cvc_criteria',
  {
    tenantId: owner(),
    id: text('id').notNull(),
    profileId: text('profile_id').notNull(),
    name: text('name').notNull(),
    version: text('version'),
    status: text('status'),
    topics: jsonb('topics').notNull(),
    tags: jsonb('tags').notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.profileId, t.id] }), index('cvc_criteria_profile_idx').on(t.profileId)],
);
