import { and, eq } from 'drizzle-orm';
import { externalCredentials, libraryRecords } from '../../db/schema/index.ts';
import type { DomainDeps } from '../deps.ts';
import { deleteCopyBestEffort } from './durable-copy.ts';
import { assertDeletableHere } from './record-writes.ts';

/**
 * Deletes an external record with its runs and its registration claim (foreign keys cascade), then
 * best-effort its durable copy. Missing or foreign ids do nothing (the route answers 204 either way);
 * a native record is refused.
 */
export const deleteExternalRecord = async (deps: DomainDeps & { correlationId?: string }, tenantId: string, id: string): Promise<void> => {
  const [row] = await deps.db
    .select({ origin: libraryRecords.origin, copy: externalCredentials })
    .from(libraryRecords)
    .leftJoin(externalCredentials, eq(externalCredentials.id, libraryRecords.id))
    .where(and(eq(libraryRecords.id, id), eq(libraryRecords.tenantId, tenantId)));
  if (!row) return;
  assertDeletableHere(row.origin);
  const deleted = await deps.db
    .delete(libraryRecords)
    .where(and(eq(libraryRecords.id, id), eq(libraryRecords.tenantId, tenantId)))
    .returning({ id: libraryRecords.id });
  if (deleted.length > 0 && row.copy) await deleteCopyBestEffort(deps, row.copy);
};
