import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema/index.ts';
import { ApiError, badRequest, conflict } from '../errors.ts';

const OPERATION = 'LIBRARY_REGISTER' as const;
/** 1–255 printable ASCII characters (peer §4.2). */
const KEY_GRAMMAR = /^[\x21-\x7e]{1,255}$/;

export const parseIdempotencyKey = (value: string | undefined): string => {
  if (value === undefined) throw badRequest('Idempotency-Key: header is required');
  if (!KEY_GRAMMAR.test(value)) throw badRequest('Idempotency-Key: must be 1 to 255 printable ASCII characters without spaces');
  return value;
};

export type Claim = { kind: 'claimed'; claimId: string } | { kind: 'replay'; recordId: string };

/**
 * Claims a registration's Idempotency-Key before any work: a new key is claimed (committed at once,
 * so a concurrent retry sees it in flight); the same key and body after success replays the record;
 * another body is 422 IDEMPOTENCY_KEY_MISMATCH; an unfinished claim younger than the stale limit is
 * 409 IDEMPOTENCY_KEY_IN_FLIGHT, an older one is taken over. Deleting the record frees the key.
 */
export const claimRegistrationKey = async (
  db: Queryable,
  input: { tenantId: string; key: string; bodyDigest: string; staleClaimMinutes: number },
): Promise<Claim> => {
  const [inserted] = await db
    .insert(idempotencyKeys)
    .values({ tenantId: input.tenantId, operation: OPERATION, key: input.key, bodyDigest: input.bodyDigest })
    .onConflictDoNothing()
    .returning({ id: idempotencyKeys.id });
  if (inserted) return { kind: 'claimed', claimId: inserted.id };

  const [existing] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.tenantId, input.tenantId), eq(idempotencyKeys.operation, OPERATION), eq(idempotencyKeys.key, input.key)));
  if (!existing) return claimRegistrationKey(db, input); // released meanwhile: claim it afresh
  if (existing.bodyDigest !== input.bodyDigest) {
    throw new ApiError(422, 'Idempotency-Key: this key was used with a different request body', 'IDEMPOTENCY_KEY_MISMATCH');
  }
  if (existing.finalisedAt && existing.recordId) return { kind: 'replay', recordId: existing.recordId };
  const [takenOver] = await db
    .update(idempotencyKeys)
    .set({ claimedAt: new Date() })
    .where(
      and(
        eq(idempotencyKeys.id, existing.id),
        sql`${idempotencyKeys.finalisedAt} is null`,
        sql`${idempotencyKeys.claimedAt} < now() - make_interval(mins => ${input.staleClaimMinutes})`,
      ),
    )
    .returning({ id: idempotencyKeys.id });
  if (takenOver) return { kind: 'claimed', claimId: takenOver.id };
  throw conflict('Idempotency-Key: a request with this key is still in progress', 'IDEMPOTENCY_KEY_IN_FLIGHT');
};

/** Records the outcome with the record, in the transaction that writes the record. */
export const finaliseClaim = (tx: Queryable, claimId: string, recordId: string) =>
  tx.update(idempotencyKeys).set({ recordId, finalisedAt: new Date() }).where(eq(idempotencyKeys.id, claimId));

/** A registration that did not complete frees its key, so the client's retry can run it again. */
export const releaseClaim = (db: Queryable, claimId: string) =>
  db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, claimId), sql`${idempotencyKeys.finalisedAt} is null`));
