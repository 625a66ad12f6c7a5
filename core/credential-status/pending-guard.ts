import { and, eq, isNotNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { credentialStatusEntries } from '../../db/schema/index.ts';
import { statusError } from './status-errors.ts';

/**
 * Deleting a credential would drop the record of a status operation in flight (its pending entry),
 * leaving a change at the VC service that nothing here remembers: 409 `STATUS_OPERATION_IN_PROGRESS`
 * (peer §1.9, DELETE). Call it in the deleting transaction: it locks the entries, so a claim either
 * committed before (and is seen) or waits and then finds the credential gone.
 */
export const assertNoPendingStatusOperation = async (tx: Queryable, tenantId: string, credentialId: string) => {
  const pending = await tx
    .select({ id: credentialStatusEntries.id })
    .from(credentialStatusEntries)
    .where(and(eq(credentialStatusEntries.credentialId, credentialId), eq(credentialStatusEntries.tenantId, tenantId), isNotNull(credentialStatusEntries.pendingSince)))
    .for('update');
  if (pending.length) throw statusError('STATUS_OPERATION_IN_PROGRESS', undefined, 'A status operation on this credential is in progress or awaits reconcile; reconcile it before deleting');
};
