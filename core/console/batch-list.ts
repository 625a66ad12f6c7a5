import { and, count, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { credentialBatches, type BATCH_STATES } from '../../db/schema/index.ts';

export type BatchState = (typeof BATCH_STATES)[number];

/** A page of the tenant's batches, newest first (ties by id), optionally in one state, and how many there are. */
export const listTenantBatches = async (db: Queryable, tenantId: string, filter: { state?: BatchState }, page: { limit: number; offset: number }) => {
  const where = and(eq(credentialBatches.tenantId, tenantId), filter.state ? eq(credentialBatches.state, filter.state) : undefined);
  const [rows, [counted]] = await Promise.all([
    db.select().from(credentialBatches).where(where).orderBy(desc(credentialBatches.createdAt), desc(credentialBatches.id)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(credentialBatches).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
};
