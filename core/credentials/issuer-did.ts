import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { dids, serviceInstances } from '../../db/schema/index.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { VcInstance } from '../dids/vc-instance.ts';
import { prepared, tenantParam } from '../prepared-queries.ts';
import { visibleTo } from '../tenancy/visibility.ts';
import { PAYLOAD_FIELD } from './payload-errors.ts';

/** `issuer` (a string) or `issuer.id` of a payload, else undefined. */
export const issuerOf = (payload: Record<string, unknown>): string | undefined => {
  const issuer = payload.issuer;
  if (typeof issuer === 'string') return issuer;
  if (issuer && typeof issuer === 'object' && !Array.isArray(issuer) && typeof (issuer as { id?: unknown }).id === 'string') {
    return (issuer as { id: string }).id;
  }
  return undefined;
};

/**
 * Step 6 of issuance: the issuer must be a DID of the tenant or a system default DID, and it names
 * the VC service that signs (the one holding its key); no primary instance stands in for a missing
 * issuer. A DID of another tenant is refused exactly as an unknown one.
 */
export const resolveIssuer = async (db: Queryable, tenantId: string, payload: Record<string, unknown>): Promise<{ did: string; instance: VcInstance }> => {
  const did = issuerOf(payload);
  if (did === undefined || did.trim() === '') {
    throw badRequest(`${PAYLOAD_FIELD}.issuer: must be the issuer's DID, or an object whose id is the DID`, 'ISSUER_DID_REQUIRED');
  }
  // The DID and the instance it names, whoever owns that now (it was visible when the DID was recorded), in one read.
  const [row] = await prepared(db, 'issuance.issuerDid', (d) =>
    d
      .select({ instance: serviceInstances })
      .from(dids)
      .leftJoin(serviceInstances, eq(serviceInstances.id, dids.serviceInstanceId))
      .where(and(eq(dids.did, sql.placeholder('did')), visibleTo(dids.tenantId, tenantParam)))
      .prepare('issuance_issuer_did'),
  ).execute({ did, tenantId });
  if (!row) throw badRequest(`${PAYLOAD_FIELD}.issuer: is not a DID registered to this tenant or a system default DID`, 'ISSUER_DID_NOT_REGISTERED');
  const { instance } = row;
  if (!instance) {
    throw new ApiError(400, `${PAYLOAD_FIELD}.issuer: the DID has no VC service instance to sign with`, 'ISSUER_DID_SERVICE_INSTANCE_MISSING');
  }
  return { did, instance };
};
