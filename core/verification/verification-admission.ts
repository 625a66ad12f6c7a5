import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { serviceInstances } from '../../db/schema/index.ts';
import { isSystemVcInstance, type VcInstance } from '../dids/vc-instance.ts';
import { admissionCall, admissionOf, type Admission, type AdmissionLimits } from '../limits/admission.ts';
import { prepared } from '../prepared-queries.ts';

export interface AdmittedVerification {
  admission: Admission;
  /** For an admitted request: the system VC instance its verification calls (read in the same statement), undefined when none is configured. */
  systemVc?: VcInstance | undefined;
}

/**
 * A public verification's admission (core/limits/admission.ts) and, for an admitted request only, the
 * system VC instance the pipeline verifies with (the same row systemVcInstance reads), in one prepared
 * statement: one round trip to PostgreSQL before the verification instead of two.
 */
export const admitVerification = async (db: Queryable, limits: AdmissionLimits): Promise<AdmittedVerification> => {
  const [row] = await prepared(db, 'verification.admission', (d) =>
    d
      .select({ tokens: sql<number>`a.tokens`, granted: sql<boolean>`a.granted`, lease: sql<string | null>`a.lease`, instance: serviceInstances })
      .from(
        sql`${admissionCall({
          rate: { scope: sql.placeholder('rateScope'), client: sql.placeholder('client'), perMinute: sql.placeholder('perMinute') },
          lease: { scope: sql.placeholder('leaseScope'), limit: sql.placeholder('limit'), seconds: sql.placeholder('seconds') },
        })} as a`,
      )
      .leftJoin(serviceInstances, sql`a.lease is not null and ${isSystemVcInstance()}`)
      .prepare('verification_admission'),
  ).execute({
    rateScope: limits.rate.scope,
    client: limits.rate.client,
    perMinute: limits.rate.perMinute,
    leaseScope: limits.lease.scope,
    limit: limits.lease.limit,
    seconds: limits.lease.seconds,
  });
  const admission = admissionOf(row!, limits.rate.perMinute);
  return admission.admitted ? { admission, systemVc: row!.instance ?? undefined } : { admission };
};
