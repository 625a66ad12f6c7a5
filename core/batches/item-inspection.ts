import type { Database } from '../../db/client.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { findTenantBatch, findTenantBatchItem, type BatchItemRow, type BatchRow } from './batch-repository.ts';

export type InspectionResult = { outcome: 'found'; batch: BatchRow; item: BatchItemRow } | { outcome: 'missing' | 'item-missing' };

/** A tenant's batch and one of its items, for the operator; another tenant's batch is `missing` alike. */
export const inspectItem = async (db: Database, tenantId: string, batchId: string, index: number): Promise<InspectionResult> => {
  const batch = await findTenantBatch(db, tenantId, batchId);
  if (!batch) return { outcome: 'missing' };
  const item = await findTenantBatchItem(db, tenantId, batchId, index);
  return item ? { outcome: 'found', batch, item } : { outcome: 'item-missing' };
};

/** The item's issuance request as submitted, opened with DATA_ENCRYPTION_KEY (throws when it cannot be). */
export const discloseItemRequest = (box: SecretBox, item: BatchItemRow): Promise<string> => box.decrypt(item.sealedRequest);
