import { and, asc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { credentialStatusEntries, credentials, libraryRecords, serviceInstances } from '../../db/schema/index.ts';
import type { StatusEntry } from '../adapters/vc/vc-adapter.ts';
import { notFound } from '../errors.ts';
import { statusError } from './status-errors.ts';

export type CredentialRow = typeof credentials.$inferSelect;
export type StatusEntryRow = typeof credentialStatusEntries.$inferSelect;

/** The purposes whose bit an issuer may change here. */
export const MANAGED_PURPOSES = ['revocation', 'suspension'] as const;
export type ManagedPurpose = (typeof MANAGED_PURPOSES)[number];

export const assertManagedPurpose = (purpose: string): ManagedPurpose => {
  if (!(MANAGED_PURPOSES as readonly string[]).includes(purpose)) throw statusError('STATUS_PURPOSE_UNSUPPORTED');
  return purpose as ManagedPurpose;
};

/**
 * A credential this tenant issued, with its status entries. Unknown and other tenants' ids are the
 * same 404; a record the tenant holds from elsewhere (EXTERNAL) is a 403: its issuer manages its status.
 */
export const findManagedCredential = async (db: Queryable, tenantId: string, id: string) => {
  const [row] = await db
    .select({ origin: libraryRecords.origin, credential: credentials })
    .from(libraryRecords)
    .leftJoin(credentials, eq(credentials.id, libraryRecords.id))
    .where(and(eq(libraryRecords.id, id), eq(libraryRecords.tenantId, tenantId)));
  if (!row) throw notFound('Credential');
  if (row.origin === 'EXTERNAL') throw statusError('EXTERNAL_CREDENTIAL_STATUS_NOT_MANAGEABLE');
  const credential = row.credential;
  if (!credential || credential.tenantId !== tenantId) throw notFound('Credential');
  const entries = await db
    .select()
    .from(credentialStatusEntries)
    .where(and(eq(credentialStatusEntries.credentialId, id), eq(credentialStatusEntries.tenantId, tenantId)))
    .orderBy(asc(credentialStatusEntries.statusPurpose));
  return { credential, entries };
};

export const entryFor = (entries: StatusEntryRow[], purpose: string): StatusEntryRow => {
  const entry = entries.find((e) => e.statusPurpose === purpose);
  if (!entry) throw statusError('STATUS_ENTRY_NOT_FOUND');
  return entry;
};

/**
 * The entry as the VC service expects it: a single-bit BitstringStatusListEntry with an integer index
 * (stored canonically as a string, sent as a number like the peer). Anything else is 422.
 */
export const providerEntry = (entry: StatusEntryRow): StatusEntry => {
  const descriptor = (entry.descriptor ?? {}) as Record<string, unknown>;
  const index = Number(entry.statusListIndex);
  const statusSize = descriptor.statusSize ?? 1;
  if (entry.type !== 'BitstringStatusListEntry' || !/^\d{1,15}$/.test(entry.statusListIndex) || !Number.isSafeInteger(index) || Number(statusSize) !== 1) {
    throw statusError('STATUS_ENTRY_UNSUPPORTED');
  }
  return {
    id: typeof descriptor.id === 'string' ? descriptor.id : `${entry.statusListCredential}#${index}`,
    type: 'BitstringStatusListEntry',
    statusPurpose: entry.statusPurpose,
    statusListIndex: index,
    statusListCredential: entry.statusListCredential,
  };
};

/** The VC instance that minted the credential's entries (whoever owns it now); gone → 409. */
export const providerInstance = async (db: Queryable, credential: CredentialRow) => {
  const id = credential.vcServiceInstanceId;
  const [row] = id ? await db.select().from(serviceInstances).where(eq(serviceInstances.id, id)) : [];
  if (!row) throw statusError('STATUS_METADATA_UNAVAILABLE');
  return row;
};
