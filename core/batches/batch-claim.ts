import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { credentialBatches } from '../../db/schema/credential-batches.ts';
import { randomToken } from '../crypto/encoding.ts';
import { bumpBatchVersion, type BatchRow } from './batch-repository.ts';

/**
 * Takes a QUEUED or RUNNING batch for one job: only when no other job holds it (or its hold
 * outlived the job timeout), so a batch's items run one at a time across the deployment. A QUEUED
 * batch becomes RUNNING. Returns the row and the claim token, or undefined when the batch is
 * settled, unknown or held by another job.
 */
export const claimBatch = async (
  tx: Queryable,
  tenantId: string,
  batchId: string,
  holdSeconds: number,
): Promise<{ batch: BatchRow; token: string } | undefined> => {
  const [free] = await tx
    .select({ id: credentialBatches.id, state: credentialBatches.state })
    .from(credentialBatches)
    .where(
      and(
        eq(credentialBatches.id, batchId),
        eq(credentialBatches.tenantId, tenantId),
        inArray(credentialBatches.state, ['QUEUED', 'RUNNING']),
        or(isNull(credentialBatches.claimToken), lt(credentialBatches.claimExpiresAt, sql`now()`)),
      ),
    )
    .for('update');
  if (!free) return undefined;
  const token = randomToken(16);
  const batch = await bumpBatchVersion(tx, batchId, {
    state: 'RUNNING',
    claimToken: token,
    claimExpiresAt: claimExpiry(holdSeconds),
  });
  return { batch, token };
};

/** When a hold taken or renewed now ends (renewed with each item the job starts). */
export const claimExpiry = (holdSeconds: number): Date => new Date(Date.now() + holdSeconds * 1000);

/** Lets the batch go (the job ends); a no-op when the hold was lost or already released by settlement. */
export const releaseClaim = async (db: Queryable, batchId: string, token: string): Promise<void> => {
  await db
    .update(credentialBatches)
    .set({ claimToken: null, claimExpiresAt: null })
    .where(and(eq(credentialBatches.id, batchId), eq(credentialBatches.claimToken, token)));
};
