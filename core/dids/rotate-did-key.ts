import { eq } from 'drizzle-orm';
import { dids } from '../../db/schema/index.ts';
import { AdapterError } from '../adapters/adapter-errors.ts';
import { ApiError } from '../errors.ts';
import type { DidDeps } from './did-operations.ts';
import { findVisibleDid } from './did-repository.ts';
import { findServiceInstanceRow, vcAdapterFor } from './vc-instance.ts';

export type DidKeyRotation =
  | { outcome: 'rotated'; did: string; keyId: string; previousKeyId: string | null }
  /** No DID with this id owned by the tenant (another tenant's DID reads the same). */
  | { outcome: 'missing' }
  /** Only a MANAGED DID's keys are held by the VC service; a SELF_MANAGED or DEFAULT one is refused. */
  | { outcome: 'not-managed' };

/**
 * A new signing key for a tenant's MANAGED DID: the VC service adds it to the DID's document and signs
 * with it from now on, keeping the old key in the document so what it signed still verifies. The record's
 * keyId follows the new key.
 */
export const rotateManagedDidKey = async (deps: DidDeps, tenantId: string, didId: string): Promise<DidKeyRotation> => {
  const row = await findVisibleDid(deps.db, tenantId, didId);
  if (!row || row.tenantId !== tenantId) return { outcome: 'missing' };
  if (row.type !== 'MANAGED') return { outcome: 'not-managed' };
  const instance = row.serviceInstanceId ? await findServiceInstanceRow(deps.db, row.serviceInstanceId) : undefined;
  if (!instance) throw new ApiError(409, 'The DID has no VC service instance any more', 'DID_INSTANCE_MISSING');
  const { adapter } = await vcAdapterFor(deps, instance);
  const rotated = await adapter.rotateDidKey(row.did).catch((error: unknown) => {
    throw error instanceof AdapterError ? new ApiError(502, `The VC service failed: ${error.message}`, 'VC_UNAVAILABLE') : error;
  });
  const keyId = rotated.keys.at(-1)?.kid;
  if (!keyId || keyId === row.keyId) throw new ApiError(502, 'The VC service answered without a new key', 'VC_UNAVAILABLE');
  await deps.db.update(dids).set({ keyId }).where(eq(dids.id, row.id));
  deps.logger.info('DID key rotated', { tenantId, didId: row.id, did: row.did, keyId, previousKeyId: row.keyId });
  return { outcome: 'rotated', did: row.did, keyId, previousKeyId: row.keyId };
};
