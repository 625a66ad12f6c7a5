import { and, asc, eq, not, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { verificationRuns } from '../../db/schema/index.ts';
import { liveJobExists } from '../jobs/live-jobs.ts';
import { QUEUE_NAMES } from '../jobs/queues.ts';
import type { Logger } from '../logging/logger.ts';
import { settleRun } from './run-generation.ts';

const r = verificationRuns;
const NOT_RUN = 'not_run' as const;

/**
 * The sweep (queue library.reconcile-pending-runs): a PENDING generation whose job will never run
 * again (completed, failed after its retries, expired, or gone) is lost; it settles as a retryable
 * VERIFICATION_UNAVAILABLE failure, so the record never stays pending and can be verified again.
 * A run whose job is still queued (no worker yet) or running is left alone. At most `batchSize`
 * runs per sweep, oldest first. Returns how many were settled.
 */
export const reconcilePendingRuns = async (db: Queryable, logger: Logger, batchSize: number): Promise<number> => {
  const lost = await db
    .select({ id: r.id, recordId: r.recordId, generation: r.generation })
    .from(r)
    .where(
      and(
        eq(r.state, 'PENDING'),
        not(liveJobExists(QUEUE_NAMES.verifyGeneration, { recordId: sql`${r.recordId}`, generation: sql`${r.generation}` })),
      ),
    )
    .orderBy(asc(r.requestedAt))
    .limit(batchSize);
  let settled = 0;
  for (const run of lost) {
    const checks = { retrieval: NOT_RUN, decryption: NOT_RUN, digest: NOT_RUN, proof: NOT_RUN, status: NOT_RUN, temporal: NOT_RUN, schemaConformance: NOT_RUN };
    const done = await settleRun(db, run.id, {
      state: 'FAILED',
      checks,
      failure: { code: 'VERIFICATION_UNAVAILABLE', message: 'The verification did not finish; ask for it again.', retryable: true },
    });
    if (done) settled += 1;
  }
  if (settled > 0) logger.warn('Lost library verification runs settled as retryable failures', { settled, runs: lost.map((x) => `${x.recordId}#${x.generation}`) });
  return settled;
};

