import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.ts';
import { dataModels } from './data-models.ts';
import { serviceInstances } from './service-instances.ts';
import { tenants } from './tenants.ts';

export const RENDER_METHOD_TYPES = ['RenderTemplate2024', 'WebRenderingTemplate2022'] as const;

/** A presentation template of a data model; its (sanitised) HTML lives in a storage service. */
export const renderTemplates = pgTable(
  'render_templates',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    dataModelId: text('data_model_id')
      .notNull()
      .references(() => dataModels.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    renderMethodType: text('render_method_type', { enum: RENDER_METHOD_TYPES }).notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    inline: boolean('inline'),
    mediaType: text('media_type'),
    mediaQuery: text('media_query'),
    storageServiceInstanceId: text('storage_service_instance_id').references(() => serviceInstances.id, { onDelete: 'set null' }),
    storageObjectId: text('storage_object_id').notNull(),
    storageUrl: text('storage_url').notNull(),
    digestMultibase: text('digest_multibase').notNull(),
    ...timestamps,
  },
  (t) => [
    index('render_templates_model_idx').on(t.dataModelId),
    // The public verify page looks a template up by the URL a credential's render method names.
    index('render_templates_storage_url_idx').on(t.storageUrl),
    uniqueIndex('render_templates_one_default_idx').on(t.tenantId, t.dataModelId).where(sql`${t.isDefault}`),
  ],
);
