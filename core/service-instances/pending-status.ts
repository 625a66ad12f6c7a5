import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { credentialStatusEntries, credentials, serviceInstances } from '../../db/schema/index.ts';

/**
 * Whether credentials issued through this VC instance have status operations in flight (a changed
 * config or a delete would strand them). Call it inside the transaction that changes the instance:
 * it locks the instance row first, and a status claim share-locks that row while it commits its
 * pending record (core/credential-status/entry-writes.ts), so the two never pass each other.
 */
export const hasPendingStatusOperations = async (db: Queryable, instanceId: string): Promise<boolean> => {
  await db.select({ id: serviceInstances.id }).from(serviceInstances).where(eq(serviceInstances.id, instanceId)).for('update');
  const [pending] = await db
    .select({ one: sql`1` })
    .from(credentialStatusEntries)
    .innerJoin(credentials, eq(credentials.id, credentialStatusEntries.credentialId))
    .where(and(eq(credentials.vcServiceInstanceId, instanceId), isNotNull(credentialStatusEntries.pendingSince)))
    .limit(1);
  return pending !== undefined;
};
