import { relations, sql } from 'drizzle-orm';
import { boolean, index, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.ts';
import { serviceInstances } from './service-instances.ts';
import { tenants } from './tenants.ts';

export const DID_TYPES = ['DEFAULT', 'MANAGED', 'SELF_MANAGED'] as const;
export const DID_METHODS = ['DID_WEB', 'DID_WEB_VH'] as const;
export const DID_STATUSES = ['ACTIVE', 'UNVERIFIED', 'VERIFIED', 'VERIFICATION_FAILED', 'INACTIVE'] as const;
export type DidType = (typeof DID_TYPES)[number];
export type DidMethod = (typeof DID_METHODS)[number];
export type DidStatus = (typeof DID_STATUSES)[number];

export const didTypeEnum = pgEnum('did_type', DID_TYPES);
export const didMethodEnum = pgEnum('did_method', DID_METHODS);
export const didStatusEnum = pgEnum('did_status', DID_STATUSES);

/**
 * A decentralised identifier a tenant (or the system) signs with. `did` is unique across tenants;
 * an alias is unique per VC instance; one isDefault per tenant. The instance may be force-deleted
 * (the reference becomes null, the record stays).
 */
export const dids = pgTable(
  'dids',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    did: text('did').notNull(),
    type: didTypeEnum('type').notNull(),
    method: didMethodEnum('method').notNull().default('DID_WEB'),
    status: didStatusEnum('status').notNull(),
    alias: text('alias'),
    keyId: text('key_id'),
    name: text('name'),
    description: text('description'),
    isDefault: boolean('is_default').notNull().default(false),
    serviceInstanceId: text('service_instance_id').references(() => serviceInstances.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('dids_did_uq').on(t.did),
    uniqueIndex('dids_instance_alias_uq').on(t.serviceInstanceId, t.alias),
    uniqueIndex('dids_one_default_idx').on(t.tenantId).where(sql`${t.isDefault}`),
    index('dids_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);

export const didsRelations = relations(dids, ({ one }) => ({
  serviceInstance: one(serviceInstances, { fields: [dids.serviceInstanceId], references: [serviceInstances.id] }),
}));
