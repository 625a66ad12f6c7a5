import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { idempotencyKeys, type IdempotentOperation } from '../../db/schema/index.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { ApiError, conflict } from '../errors.ts';

export interface ClaimRequest {
  tenantId: string;
  operation: IdempotentOperation;
  key: string;
  bodyDigest: string;
  /** IDEMPOTENCY_STALE_CLAIM_MINUTES: an unfinished claim older than this may be taken over. */
  staleAfterMinutes: number;
}

/**
 * Either the caller now holds the key (do the work, then finalise or release), or a replay: the
 * record the key made, and its sealed answer when that was recorded (each operation shapes its own
 * answer from the record when it was not).
 */
export type ClaimOutcome = { kind: 'claimed'; claimId: string } | { kind: 'replay'; recordId: string; response: unknown | undefined };

const inFlight = () => conflict('Idempotency-Key: a request with this key is still being processed; retry later', 'IDEMPOTENCY_KEY_IN_FLIGHT');
const mismatch = () => new ApiError(422, 'Idempotency-Key: was already used with a different request body', 'IDEMPOTENCY_KEY_MISMATCH');

/**
 * Claims a key for one tenant and operation. A new key is claimed; a finished one with the same body
 * replays its answer; another body is 422; an unfinished claim is 409 unless it is stale, then it is
 * taken over (only one caller wins the takeover).
 */
export const claimIdempotencyKey = async (db: Database, box: SecretBox, request: ClaimRequest, attempt = 0): Promise<ClaimOutcome> => {
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values({ tenantId: request.tenantId, operation: request.operation, key: request.key, bodyDigest: request.bodyDigest })
    .onConflictDoNothing()
    .returning({ id: idempotencyKeys.id });
  if (claimed) return { kind: 'claimed', claimId: claimed.id };

  const [existing] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.tenantId, request.tenantId), eq(idempotencyKeys.operation, request.operation), eq(idempotencyKeys.key, request.key)));
  // Released between our insert and read: start again (a key released over and over is simply busy).
  if (!existing) {
    if (attempt >= 2) throw inFlight();
    return claimIdempotencyKey(db, box, request, attempt + 1);
  }
  if (existing.bodyDigest !== request.bodyDigest) throw mismatch();
  // A finished claim always names its record (finaliseClaim sets it; deleting the record deletes the claim).
  if (existing.recordId) {
    // The work was recorded but its answer perhaps not (a crash in between): then the record is the answer.
    const response = existing.finalisedAt && existing.sealedResponse ? await box.decryptJson(existing.sealedResponse) : undefined;
    return { kind: 'replay', recordId: existing.recordId, response };
  }
  const [takenOver] = await db
    .update(idempotencyKeys)
    .set({ claimedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(idempotencyKeys.id, existing.id),
        sql`${idempotencyKeys.finalisedAt} is null`,
        lt(idempotencyKeys.claimedAt, sql`now() - make_interval(mins => ${request.staleAfterMinutes})`),
        eq(idempotencyKeys.claimedAt, existing.claimedAt),
      ),
    )
    .returning({ id: idempotencyKeys.id });
  if (takenOver) return { kind: 'claimed', claimId: takenOver.id };
  throw inFlight();
};

/** Ties the claim to the record it made, inside the transaction that writes the record (deleting the record frees the key). */
export const attachClaimRecord = async (tx: Queryable, claimId: string, recordId: string) => {
  await tx.update(idempotencyKeys).set({ recordId, updatedAt: new Date() }).where(eq(idempotencyKeys.id, claimId));
};

/** Records the answer (sealed) and the record it made; deleting that record frees the key. */
export const finaliseClaim = async (db: Database, box: SecretBox, claimId: string, recordId: string, response: unknown) => {
  await db
    .update(idempotencyKeys)
    .set({ recordId, sealedResponse: await box.encryptJson(response), finalisedAt: new Date(), updatedAt: new Date() })
    .where(eq(idempotencyKeys.id, claimId));
};

/** The work failed: the key is free again for a retry. */
export const releaseClaim = async (db: Database, claimId: string) => {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, claimId), sql`${idempotencyKeys.finalisedAt} is null`));
};
