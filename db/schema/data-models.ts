import { type AnyPgColumn, boolean, index, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.ts';
import { tenants } from './tenants.ts';

/**
 * A credential type at a version: core models (system, isExtension false) and extensions of them
 * (parentConfigId set). Name is unique per tenant, credentialType, version and isExtension.
 */
export const dataModels = pgTable(
  'data_models',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    credentialType: text('credential_type').notNull(),
    version: text('version').notNull(),
    isExtension: boolean('is_extension').notNull(),
    parentConfigId: text('parent_config_id').references((): AnyPgColumn => dataModels.id, { onDelete: 'restrict' }),
    schemaUrl: text('schema_url').notNull(),
    contextUrl: text('context_url').notNull(),
    websiteUrl: text('website_url'),
    ...timestamps,
  },
  (t) => [
    unique('data_models_name_uq').on(t.tenantId, t.credentialType, t.version, t.isExtension, t.name),
    index('data_models_parent_idx').on(t.parentConfigId),
    index('data_models_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);
