import { and, eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { externalCredentials, libraryRecords } from '../../db/schema/index.ts';
import { ApiError, conflict, forbidden, notFound } from '../errors.ts';

const staleVersion = () => conflict('The supplied If-Version is stale.', 'VERSION_CONFLICT');

/** The tenant's record (parent row only) or the 404 a foreign id gets too. */
export const findOwnRecord = async (db: Queryable, tenantId: string, id: string) => {
  const [row] = await db
    .select({ id: libraryRecords.id, origin: libraryRecords.origin })
    .from(libraryRecords)
    .where(and(eq(libraryRecords.id, id), eq(libraryRecords.tenantId, tenantId)));
  if (!row) throw notFound('Credential record');
  return row;
};

/** Full replacement of the tags, fenced by tagVersion; always bumps the version and updatedAt (even to the same tags). */
export const replaceTags = async (db: Queryable, tenantId: string, id: string, expectedVersion: number, tags: string[]): Promise<void> => {
  const updated = await db
    .update(libraryRecords)
    .set({ tags, tagVersion: sql`${libraryRecords.tagVersion} + 1` })
    .where(and(eq(libraryRecords.id, id), eq(libraryRecords.tenantId, tenantId), eq(libraryRecords.tagVersion, expectedVersion)))
    .returning({ id: libraryRecords.id });
  if (updated.length === 0) throw staleVersion();
};

export interface AnnotationPatch {
  displayName?: string;
  declaredCredentialType?: string;
  dateReceived?: string | null;
  notes?: string | null;
}

export const assertAnnotatable = (origin: 'NATIVE' | 'EXTERNAL') => {
  if (origin === 'NATIVE') {
    throw forbidden('A credential issued here carries no annotations; only external records are annotated.', 'NATIVE_CREDENTIAL_NOT_ANNOTATABLE');
  }
};

/** Writes the annotations of an external record, fenced by annotationVersion; the parent's updatedAt moves with them. */
export const updateAnnotations = async (
  db: Database,
  tenantId: string,
  id: string,
  expectedVersion: number,
  patch: AnnotationPatch,
): Promise<void> =>
  db.transaction(async (tx) => {
    const updated = await tx
      .update(externalCredentials)
      .set({ ...patch, annotationVersion: sql`${externalCredentials.annotationVersion} + 1` })
      .where(and(eq(externalCredentials.id, id), eq(externalCredentials.tenantId, tenantId), eq(externalCredentials.annotationVersion, expectedVersion)))
      .returning({ id: externalCredentials.id });
    if (updated.length === 0) throw staleVersion();
    await tx.update(libraryRecords).set({ updatedAt: new Date() }).where(eq(libraryRecords.id, id));
  });

export const assertDeletableHere = (origin: 'NATIVE' | 'EXTERNAL') => {
  if (origin === 'NATIVE') {
    throw new ApiError(403, 'A credential issued here is deleted through DELETE /api/v1/credentials/{id}.', 'NATIVE_CREDENTIAL_NOT_DELETABLE');
  }
};
