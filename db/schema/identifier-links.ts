import { index, jsonb, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.ts';
import { identifiers } from './registrars.ts';
import { serviceInstances } from './service-instances.ts';
import { tenants } from './tenants.ts';

/**
 * The local audit record of a link published to an identity resolver: which instance, the resolver's
 * link id, and what was published (our link fields, as sent after canonicalisation).
 */
export const identifierLinks = pgTable(
  'identifier_links',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    identifierId: text('identifier_id')
      .notNull()
      .references(() => identifiers.id, { onDelete: 'cascade' }),
    /** The instance it was published through; kept (null) if the instance is later removed. */
    idrServiceInstanceId: text('idr_service_instance_id').references(() => serviceInstances.id, { onDelete: 'set null' }),
    idrLinkId: text('idr_link_id').notNull(),
    qualifierPath: text('qualifier_path').notNull().default('/'),
    description: text('description'),
    published: jsonb('published').notNull(),
    ...timestamps,
  },
  (t) => [
    index('identifier_links_identifier_idx').on(t.identifierId, t.createdAt),
    unique('identifier_links_instance_link_uq').on(t.idrServiceInstanceId, t.idrLinkId),
  ],
);
