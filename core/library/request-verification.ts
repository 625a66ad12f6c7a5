import { and, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { libraryRecords, verificationRuns } from '../../db/schema/index.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { QUEUE_NAMES } from '../jobs/queues.ts';

/**
 * Starts the record's next verification generation and enqueues its job in the caller's transaction,
 * or joins the generation already pending (at most one per record; no second job). The parent row is
 * locked first, so concurrent requests for one record take turns. A native record's first run is
 * generation 2: generation 1 is its issuance. Returns the pending generation.
 */
export const requestVerification = async (
  tx: Queryable,
  jobs: JobQueue,
  record: { tenantId: string; recordId: string; origin: 'NATIVE' | 'EXTERNAL' },
): Promise<number> => {
  await tx
    .select({ id: libraryRecords.id })
    .from(libraryRecords)
    .where(and(eq(libraryRecords.id, record.recordId), eq(libraryRecords.tenantId, record.tenantId)))
    .for('update');
  const [latest] = await tx
    .select({ generation: verificationRuns.generation, state: verificationRuns.state })
    .from(verificationRuns)
    .where(eq(verificationRuns.recordId, record.recordId))
    .orderBy(desc(verificationRuns.generation))
    .limit(1);
  if (latest?.state === 'PENDING') return latest.generation;
  const generation = latest ? latest.generation + 1 : record.origin === 'NATIVE' ? 2 : 1;
  await tx.insert(verificationRuns).values({ recordId: record.recordId, tenantId: record.tenantId, generation, lastEnqueuedAt: sql`now()` });
  await jobs.enqueue(tx, { queue: QUEUE_NAMES.verifyGeneration, payload: { tenantId: record.tenantId, recordId: record.recordId, generation } });
  return generation;
};
