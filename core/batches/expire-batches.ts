import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { credentialBatches, credentialBatchItems } from '../../db/schema/credential-batches.ts';
import type { Logger } from '../logging/logger.ts';
import { bumpBatchVersion, lockTenantBatch } from './batch-repository.ts';

/**
 * The `credentials.expire-batches` sweep: a COMPLETED or CANCELLED batch past its retention
 * deadline (from settledAt, or resolvedAt after operator resolution) loses its items, sealed
 * requests included, and becomes an EXPIRED tombstone with its counts, submission key and body
 * digest. Credentials are never touched. A NEEDS_ATTENTION batch has no deadline.
 */
export const expireBatches = async (deps: { db: Database; logger: Logger; batchSize: number }): Promise<string[]> => {
  const due = await deps.db
    .select({ id: credentialBatches.id, tenantId: credentialBatches.tenantId })
    .from(credentialBatches)
    .where(and(inArray(credentialBatches.state, ['COMPLETED', 'CANCELLED']), lte(credentialBatches.expiresAt, sql`now()`)))
    .limit(deps.batchSize);
  const expired: string[] = [];
  for (const { id, tenantId } of due) {
    await deps.db.transaction(async (tx) => {
      const batch = await lockTenantBatch(tx, tenantId, id);
      if (!batch || (batch.state !== 'COMPLETED' && batch.state !== 'CANCELLED') || !batch.expiresAt || batch.expiresAt > new Date()) return;
      await tx.delete(credentialBatchItems).where(eq(credentialBatchItems.batchId, id));
      await bumpBatchVersion(tx, id, { state: 'EXPIRED' });
      expired.push(id);
    });
  }
  if (expired.length > 0) deps.logger.info('Batches expired', { count: expired.length, batchIds: expired });
  return expired;
};
