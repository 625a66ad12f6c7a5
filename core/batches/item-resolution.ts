import { and, eq, ne } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { credentialBatchItems } from '../../db/schema/credential-batches.ts';
import { credentials } from '../../db/schema/credentials.ts';
import { OPERATOR_CONFIRMED_FAILED } from './batch-projection.ts';
import { findTenantBatchItem, lockTenantBatch, transitionItem, type BatchItemRow, type BatchRow } from './batch-repository.ts';
import { settleResolvedBatch } from './batch-settlement.ts';

/**
 * Why the repository refuses a resolution (spec "Operator commands"); the CLI prints the word and
 * exits non-zero. Checked in this order.
 */
export type ResolutionRefusal =
  | 'reason-missing'
  | 'evidence-missing'
  | 'missing'
  | 'not-settled'
  | 'version-mismatch'
  | 'item-missing'
  | 'not-unknown'
  | 'credential-not-found'
  | 'credential-recorded'
  | AdoptionRefusal;

/** Why a stored copy cannot be adopted (`resolve-item --issued-from-stored`, core/batches/stored-copy-adoption.ts). */
export type AdoptionRefusal = 'no-stored-copy' | 'several-stored-copies' | 'stored-copy-encrypted' | 'stored-copy-unreadable' | 'stored-copy-mismatch';

/** The operator's finding: the credential was issued after all, or it was not (with evidence). */
export type ItemFinding =
  | { as: 'issued'; credentialId: string }
  | { as: 'failed'; evidence: string | undefined }
  /** Issued, and recorded now from a stored copy: `record` writes the credential in the resolution's transaction. */
  | { as: 'adopted'; record: (tx: Queryable) => Promise<string> };

export interface ItemResolution {
  tenantId: string;
  batchId: string;
  index: number;
  /** The batch version inspect printed: resolution is fenced on it. */
  version: number;
  finding: ItemFinding;
  /** The operator's ticket, persisted as resolutionReason. */
  reason: string | undefined;
  /** Show the change and roll it back. */
  dryRun: boolean;
  /** BATCH_RETENTION_DAYS: the new retention window when this settles the batch. */
  retentionDays: number;
}

export interface ResolutionState {
  batch: BatchRow;
  item: BatchItemRow;
}

export type ResolutionResult =
  | { outcome: 'resolved' | 'dry-run'; before: ResolutionState; after: ResolutionState }
  | { outcome: ResolutionRefusal; before?: ResolutionState };

/** Thrown inside the transaction to end it without writing; carries the result out. */
class Rollback extends Error {
  constructor(readonly result: ResolutionResult) {
    super('rolled back');
  }
}

const isBlank = (value: string | undefined) => value === undefined || value.trim() === '';

/** The item's credential must be one of the tenant's credentials, recorded by no other batch item. */
const credentialRefusal = async (tx: Queryable, tenantId: string, itemId: string, credentialId: string): Promise<ResolutionRefusal | undefined> => {
  const [credential] = await tx
    .select({ id: credentials.id })
    .from(credentials)
    .where(and(eq(credentials.id, credentialId), eq(credentials.tenantId, tenantId)));
  if (!credential) return 'credential-not-found';
  const [recorder] = await tx
    .select({ id: credentialBatchItems.id })
    .from(credentialBatchItems)
    .where(and(eq(credentialBatchItems.tenantId, tenantId), eq(credentialBatchItems.credentialId, credentialId), ne(credentialBatchItems.id, itemId)))
    .limit(1);
  return recorder ? 'credential-recorded' : undefined;
};

/**
 * Resolves one OUTCOME_UNKNOWN item of a NEEDS_ATTENTION batch as issued or failed, in one
 * transaction holding the batch row: the item and counters move, the version is bumped, and when
 * no unknown item remains the batch settles (COMPLETED or CANCELLED, `resolvedAt`, a new retention
 * deadline). Never queues issuance. A worker write since `version` was read makes it `version-mismatch`.
 */
export const resolveItem = async (db: Database, r: ItemResolution): Promise<ResolutionResult> => {
  if (isBlank(r.reason)) return { outcome: 'reason-missing' };
  if (r.finding.as === 'failed' && isBlank(r.finding.evidence)) return { outcome: 'evidence-missing' };
  try {
    return await db.transaction(async (tx) => {
      const batch = await lockTenantBatch(tx, r.tenantId, r.batchId);
      if (!batch) return { outcome: 'missing' };
      const item = await findTenantBatchItem(tx, r.tenantId, r.batchId, r.index);
      const before = item ? { batch, item } : undefined;
      if (batch.state !== 'NEEDS_ATTENTION') return { outcome: 'not-settled', before };
      if (batch.version !== r.version) return { outcome: 'version-mismatch', before };
      if (!item || !before) return { outcome: 'item-missing' };
      if (item.state !== 'OUTCOME_UNKNOWN') return { outcome: 'not-unknown', before };
      if (r.finding.as === 'issued') {
        const refusal = await credentialRefusal(tx, r.tenantId, item.id, r.finding.credentialId);
        if (refusal) return { outcome: refusal, before };
      }
      const issuedId = r.finding.as === 'issued' ? r.finding.credentialId : r.finding.as === 'adopted' ? await r.finding.record(tx) : undefined;
      const resolvedAt = new Date();
      const common = { resolutionReason: r.reason!.trim(), resolvedAt, attemptToken: null, nextAttemptAt: null };
      const moved = await transitionItem(tx, {
        batchId: batch.id,
        itemId: item.id,
        from: ['OUTCOME_UNKNOWN'],
        ...(issuedId !== undefined
          ? { to: 'ISSUED' as const, set: { ...common, credentialId: issuedId, errorCode: null, errorMessage: null } }
          : {
              to: 'FAILED' as const,
              set: {
                ...common,
                resolutionEvidence: (r.finding as { evidence: string }).evidence.trim(),
                errorCode: OPERATOR_CONFIRMED_FAILED.code,
                errorMessage: OPERATOR_CONFIRMED_FAILED.message,
              },
            }),
      });
      // The row is locked and the state was checked above: the move cannot miss.
      if (!moved) throw new Error(`Batch ${batch.id} item ${r.index} changed under the batch lock`);
      const settled = await settleResolvedBatch(tx, moved.batch, r.retentionDays);
      const result: ResolutionResult = { outcome: r.dryRun ? 'dry-run' : 'resolved', before, after: { batch: settled ?? moved.batch, item: moved.after } };
      if (r.dryRun) throw new Rollback(result);
      return result;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.result;
    throw error;
  }
};
