import { relations, sql } from 'drizzle-orm';
import { index, integer, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.ts';
import { serviceInstances } from './service-instances.ts';
import { tenants } from './tenants.ts';

/** An identifier registrar (e.g. GS1). Its namespace groups its schemes when publishing to an IDR. */
export const registrars = pgTable(
  'registrars',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    namespace: text('namespace').notNull(),
    url: text('url').notNull(),
    idrServiceInstanceId: text('idr_service_instance_id').references(() => serviceInstances.id, {
      onDelete: 'set null',
    }),
    ...timestamps,
  },
  (t) => [index('registrars_tenant_created_idx').on(t.tenantId, t.createdAt)],
);

/**
 * An identifier scheme of a registrar (e.g. GTIN). primaryKey is unique per registrar within a tenant
 * (tenants sharing a system registrar never see each other's schemes), and a tenant cannot take a
 * primaryKey a system scheme of that registrar holds (checked by the repository and the seed).
 */
export const identifierSchemes = pgTable(
  'identifier_schemes',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    registrarId: text('registrar_id')
      .notNull()
      .references(() => registrars.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    primaryKey: text('primary_key').notNull(),
    validationPattern: text('validation_pattern').notNull(),
    linkTemplate: text('link_template').notNull(),
    idrServiceInstanceId: text('idr_service_instance_id').references(() => serviceInstances.id, {
      onDelete: 'set null',
    }),
    ...timestamps,
  },
  (t) => [
    unique('identifier_schemes_registrar_primary_key_uq').on(t.registrarId, t.primaryKey, t.tenantId),
    index('identifier_schemes_tenant_idx').on(t.tenantId),
  ],
);

export const schemeQualifiers = pgTable(
  'scheme_qualifiers',
  {
    id: idColumn(),
    schemeId: text('scheme_id')
      .notNull()
      .references(() => identifierSchemes.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    description: text('description').notNull(),
    validationPattern: text('validation_pattern').notNull(),
    order: integer('order').notNull().default(0),
    ...timestamps,
  },
  (t) => [unique('scheme_qualifiers_scheme_key_uq').on(t.schemeId, t.key)],
);

/**
 * A tenant's identifier value under a scheme. Deleting a scheme with identifiers is refused
 * by the database too (RESTRICT), not only by the domain check.
 */
export const identifiers = pgTable(
  'identifiers',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    schemeId: text('scheme_id')
      .notNull()
      .references(() => identifierSchemes.id, { onDelete: 'restrict' }),
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [
    unique('identifiers_scheme_value_tenant_uq').on(t.schemeId, t.value, t.tenantId),
    index('identifiers_tenant_idx').on(t.tenantId),
    index('identifiers_value_trgm_idx').using('gin', sql`${t.value} gin_trgm_ops`).with({ fastupdate: false }),
  ],
);

export const registrarsRelations = relations(registrars, ({ many, one }) => ({
  schemes: many(identifierSchemes),
  idrServiceInstance: one(serviceInstances, {
    fields: [registrars.idrServiceInstanceId],
    references: [serviceInstances.id],
  }),
}));

export const identifierSchemesRelations = relations(identifierSchemes, ({ one, many }) => ({
  registrar: one(registrars, { fields: [identifierSchemes.registrarId], references: [registrars.id] }),
  qualifiers: many(schemeQualifiers),
  identifiers: many(identifiers),
}));

export const schemeQualifiersRelations = relations(schemeQualifiers, ({ one }) => ({
  scheme: one(identifierSchemes, { fields: [schemeQualifiers.schemeId], references: [identifierSchemes.id] }),
}));

export const identifiersRelations = relations(identifiers, ({ one }) => ({
  scheme: one(identifierSchemes, { fields: [identifiers.schemeId], references: [identifierSchemes.id] }),
}));
