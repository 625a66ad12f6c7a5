import { sql } from 'drizzle-orm';
import { boolean, index, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from './columns.ts';
import { tenants } from './tenants.ts';

export const SERVICE_TYPES = ['IDR', 'STORAGE', 'VC'] as const;
export const ADAPTER_TYPES = ['VC_ADAPTER', 'IDR_ADAPTER', 'STORAGE_ADAPTER'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];
export type AdapterType = (typeof ADAPTER_TYPES)[number];

export const serviceTypeEnum = pgEnum('service_type', SERVICE_TYPES);
export const adapterTypeEnum = pgEnum('adapter_type', ADAPTER_TYPES);

/** A connection to an upstream VC, storage or IDR service. `config` is AES-256-GCM ciphertext. */
export const serviceInstances = pgTable(
  'service_instances',
  {
    id: idColumn(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    serviceType: serviceTypeEnum('service_type').notNull(),
    adapterType: adapterTypeEnum('adapter_type').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    configEncrypted: text('config_encrypted').notNull(),
    isPrimary: boolean('is_primary').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('service_instances_tenant_type_idx').on(t.tenantId, t.serviceType),
    uniqueIndex('service_instances_one_primary_idx')
      .on(t.tenantId, t.serviceType)
      .where(sql`${t.isPrimary}`),
  ],
);
