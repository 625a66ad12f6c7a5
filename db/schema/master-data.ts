import { relations, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  index,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.ts';
import { identifiers } from './registrars.ts';
import { tenants } from './tenants.ts';

export const PRODUCT_LEVELS = ['MODEL', 'BATCH', 'ITEM'] as const;
export type ProductLevel = (typeof PRODUCT_LEVELS)[number];
export const productLevelEnum = pgEnum('product_level', PRODUCT_LEVELS);

const tenantColumn = () =>
  text('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

/**
 * A primary identifier is primary on at most one record of each kind (unique), and is cleared
 * when the identifier is deleted. Secondary identifiers live in join tables that follow deletions.
 */
const primaryIdentifierColumn = () =>
  text('primary_identifier_id')
    .unique()
    .references(() => identifiers.id, { onDelete: 'set null' });

/**
 * Trigram index for `search` (case-insensitive substring match on name). `fastupdate` off: entries go
 * straight into the index, so records just bulk-imported are found through it at once (with the pending
 * list the planner prices the index out and scans the table until the next vacuum).
 */
const nameSearchIndex = (name: string, column: AnyPgColumn) =>
  index(name).using('gin', sql`${column} gin_trgm_ops`).with({ fastupdate: false });

export const organisations = pgTable(
  'organisations',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    name: text('name').notNull(),
    description: text('description'),
    location: jsonb('location'),
    primaryIdentifierId: primaryIdentifierColumn(),
    ...timestamps,
  },
  (t) => [
    index('organisations_tenant_created_id_idx').on(t.tenantId, t.createdAt, t.id),
    nameSearchIndex('organisations_name_trgm_idx', t.name),
  ],
);

export const facilities = pgTable(
  'facilities',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    name: text('name').notNull(),
    description: text('description'),
    location: jsonb('location'),
    operatingOrganisationId: text('operating_organisation_id').references(() => organisations.id, {
      onDelete: 'set null',
    }),
    primaryIdentifierId: primaryIdentifierColumn(),
    ...timestamps,
  },
  (t) => [
    index('facilities_tenant_created_id_idx').on(t.tenantId, t.createdAt, t.id),
    index('facilities_operating_organisation_idx').on(t.operatingOrganisationId),
    nameSearchIndex('facilities_name_trgm_idx', t.name),
  ],
);

export const products = pgTable(
  'products',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    name: text('name').notNull(),
    description: text('description'),
    level: productLevelEnum('level').notNull(),
    parentId: text('parent_id').references((): AnyPgColumn => products.id, { onDelete: 'set null' }),
    producedByOrganisationId: text('produced_by_organisation_id').references(() => organisations.id, {
      onDelete: 'set null',
    }),
    manufacturingFacilityId: text('manufacturing_facility_id').references(() => facilities.id, {
      onDelete: 'set null',
    }),
    primaryIdentifierId: primaryIdentifierColumn(),
    ...timestamps,
  },
  (t) => [
    index('products_tenant_created_id_idx').on(t.tenantId, t.createdAt, t.id),
    index('products_parent_idx').on(t.parentId),
    index('products_organisation_idx').on(t.producedByOrganisationId),
    index('products_facility_idx').on(t.manufacturingFacilityId),
    nameSearchIndex('products_name_trgm_idx', t.name),
  ],
);

const secondaryIdentifiers = <N extends string>(name: N, ownerColumn: string, owner: () => AnyPgColumn) =>
  pgTable(
    name,
    {
      ownerId: text(ownerColumn)
        .notNull()
        .references(owner, { onDelete: 'cascade' }),
      identifierId: text('identifier_id')
        .notNull()
        .references(() => identifiers.id, { onDelete: 'cascade' }),
    },
    (t) => [primaryKey({ columns: [t.ownerId, t.identifierId] }), index(`${name}_identifier_idx`).on(t.identifierId)],
  );

export const organisationSecondaryIdentifiers = secondaryIdentifiers(
  'organisation_secondary_identifiers',
  'organisation_id',
  () => organisations.id,
);
export const facilitySecondaryIdentifiers = secondaryIdentifiers(
  'facility_secondary_identifiers',
  'facility_id',
  () => facilities.id,
);
export const productSecondaryIdentifiers = secondaryIdentifiers(
  'product_secondary_identifiers',
  'product_id',
  () => products.id,
);

export const organisationsRelations = relations(organisations, ({ one, many }) => ({
  primaryIdentifier: one(identifiers, { fields: [organisations.primaryIdentifierId], references: [identifiers.id] }),
  secondaryIdentifiers: many(organisationSecondaryIdentifiers),
}));
export const facilitiesRelations = relations(facilities, ({ one, many }) => ({
  primaryIdentifier: one(identifiers, { fields: [facilities.primaryIdentifierId], references: [identifiers.id] }),
  operatingOrganisation: one(organisations, {
    fields: [facilities.operatingOrganisationId],
    references: [organisations.id],
  }),
  secondaryIdentifiers: many(facilitySecondaryIdentifiers),
}));
export const productsRelations = relations(products, ({ one, many }) => ({
  primaryIdentifier: one(identifiers, { fields: [products.primaryIdentifierId], references: [identifiers.id] }),
  parent: one(products, { fields: [products.parentId], references: [products.id], relationName: 'hierarchy' }),
  children: many(products, { relationName: 'hierarchy' }),
  producedByOrganisation: one(organisations, {
    fields: [products.producedByOrganisationId],
    references: [organisations.id],
  }),
  manufacturingFacility: one(facilities, { fields: [products.manufacturingFacilityId], references: [facilities.id] }),
  secondaryIdentifiers: many(productSecondaryIdentifiers),
}));
export const organisationSecondaryIdentifiersRelations = relations(organisationSecondaryIdentifiers, ({ one }) => ({
  organisation: one(organisations, { fields: [organisationSecondaryIdentifiers.ownerId], references: [organisations.id] }),
  identifier: one(identifiers, { fields: [organisationSecondaryIdentifiers.identifierId], references: [identifiers.id] }),
}));
export const facilitySecondaryIdentifiersRelations = relations(facilitySecondaryIdentifiers, ({ one }) => ({
  facility: one(facilities, { fields: [facilitySecondaryIdentifiers.ownerId], references: [facilities.id] }),
  identifier: one(identifiers, { fields: [facilitySecondaryIdentifiers.identifierId], references: [identifiers.id] }),
}));
export const productSecondaryIdentifiersRelations = relations(productSecondaryIdentifiers, ({ one }) => ({
  product: one(products, { fields: [productSecondaryIdentifiers.ownerId], references: [products.id] }),
  identifier: one(identifiers, { fields: [productSecondaryIdentifiers.identifierId], references: [identifiers.id] }),
}));
