import { sql } from 'drizzle-orm';
import type { IdrDocument } from '../adapters/idr/idr-adapter.ts';

/** The resolver document an identifier's links under a qualifier path live in. */
export const documentOf = (
  identifier: { value: string; scheme: { primaryKey: string; registrar: { namespace: string } } },
  qualifierPath: string,
): IdrDocument => ({
  namespace: identifier.scheme.registrar.namespace,
  identificationKeyType: identifier.scheme.primaryKey,
  identificationKey: identifier.value,
  qualifierPath,
});

/** `gs1/01/09520123456788/10/LOT1`: how a document is named in messages and logs. */
export const documentName = (d: IdrDocument) =>
  `${d.namespace}/${d.identificationKeyType}/${d.identificationKey}${d.qualifierPath === '/' ? '' : d.qualifierPath}`;

/**
 * Serialises our writes to one resolver document across processes until the transaction ends: the
 * resolver rewrites a document whole, so two registrations at once lose each other's links.
 */
export const lockDocument = async (tx: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> }, instanceId: string, d: IdrDocument) => {
  const key = `idr-document:${JSON.stringify([instanceId, d.namespace, d.identificationKeyType, d.identificationKey, d.qualifierPath])}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
};
