import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { credentialBatches, credentialBatchItems } from '../../db/schema/credential-batches.ts';
import type { BatchItemRow, BatchRow } from './batch-repository.ts';

const needsAttention = (tenantId: string | undefined): SQL =>
  and(eq(credentialBatches.state, 'NEEDS_ATTENTION'), tenantId === undefined ? undefined : eq(credentialBatches.tenantId, tenantId))!;

/** How many batches need attention (of one tenant, or of all): the total a listing reports progress against. */
export const countBatchesNeedingAttention = async (db: Database, tenantId?: string): Promise<number> => {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(credentialBatches).where(needsAttention(tenantId));
  return row?.n ?? 0;
};

export interface AttentionPage {
  batches: BatchRow[];
  /** The OUTCOME_UNKNOWN items of those batches, by batch then index. */
  items: BatchItemRow[];
}

/**
 * The batches that need attention and their unknown items, a page of batches at a time (keyset on
 * the batch id, two queries per page), so a long listing can report progress as it goes.
 */
export async function* pagesNeedingAttention(db: Database, tenantId?: string, pageSize = 100): AsyncGenerator<AttentionPage> {
  let after: string | undefined;
  for (;;) {
    const batches = await db
      .select()
      .from(credentialBatches)
      .where(and(needsAttention(tenantId), after === undefined ? undefined : gt(credentialBatches.id, after)))
      .orderBy(asc(credentialBatches.id))
      .limit(pageSize);
    if (batches.length === 0) return;
    const items = await db
      .select()
      .from(credentialBatchItems)
      .where(and(inArray(credentialBatchItems.batchId, batches.map((b) => b.id)), eq(credentialBatchItems.state, 'OUTCOME_UNKNOWN')))
      .orderBy(asc(credentialBatchItems.batchId), asc(credentialBatchItems.index));
    yield { batches, items };
    after = batches.at(-1)!.id;
  }
}
