import { and, asc, count, desc, eq, inArray, sql, type Placeholder, type Query, type SQL } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.ts';
import { createId } from '../../db/ids.ts';
import { credentials, credentialStatusEntries, libraryRecords } from '../../db/schema/index.ts';
import type { StatusEntry } from '../adapters/vc/vc-adapter.ts';
import type { CredentialDetails } from './credential-details.ts';
import { assertNoPendingStatusOperation } from '../credential-status/pending-guard.ts';

export type LibraryRecordRow = typeof libraryRecords.$inferSelect;
export type CredentialRow = typeof credentials.$inferSelect;
export type StatusEntryRow = typeof credentialStatusEntries.$inferSelect;

/** An issued credential as the routes show it: the library record, its issuance detail, its status entries. */
export interface CredentialRecord {
  record: LibraryRecordRow;
  credential: CredentialRow;
  statusEntries: StatusEntryRow[];
}

export interface NewIssuedCredential {
  tenantId: string;
  credentialType: string;
  version: string;
  dataModelId: string;
  coreCredentialType: string | null;
  coreVersion: string;
  details: CredentialDetails;
  detailsError: string | null;
  entities: { productId: string | null; facilityId: string | null; organisationId: string | null };
  tags: string[];
  issuerDid: string;
  vcServiceInstanceId: string;
  storageServiceInstanceId: string;
  storageUri: string;
  storageExternalId: string;
  digestMultibase: string;
  encrypted: boolean;
  wrappedDecryptionKey: string | null;
  /** The human link carries the decryption key (publishingOptions.humanLinkIncludesKey, encrypted copies only). */
  humanLinkIncludesKey?: boolean;
  statusEntries: StatusEntry[];
}

/** `values` of an insert: each column given is the placeholder `<prefix><column>`. */
const placeholders = <K extends string>(prefix: string, names: readonly K[]) =>
  Object.fromEntries(names.map((name) => [name, sql.placeholder(`${prefix}${name}`)])) as unknown as Record<K, Placeholder>;

const RECORD_COLUMNS = [
  'id', 'tenantId', 'origin', 'credentialType', 'coreCredentialType', 'coreVersion', 'name', 'issuerName', 'issuerDid', 'subjectName',
  'subjectId', 'validFrom', 'validUntil', 'detailsStatus', 'detailsError', 'productId', 'facilityId', 'organisationId', 'tags',
] as const;
const ISSUANCE_COLUMNS = [
  'id', 'tenantId', 'credentialType', 'version', 'dataModelId', 'issuerDid', 'vcServiceInstanceId', 'storageServiceInstanceId', 'storageUri',
  'storageExternalId', 'digestMultibase', 'encrypted', 'wrappedDecryptionKey', 'humanLinkIncludesKey', 'statusCapture', 'statusCapturedAt',
] as const;
const ENTRY_COLUMNS = [
  'id', 'credentialId', 'tenantId', 'statusPurpose', 'type', 'statusListCredential', 'statusListIndex', 'statusListIssuer', 'descriptor', 'value', 'observedAt',
] as const;
type Values<C extends readonly string[]> = Record<C[number], unknown>;

/** Prefixed values for the placeholders of `placeholders(prefix, …)`. */
const prefixed = (prefix: string, values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [`${prefix}${k}`, v]));

/** `$n` parameters of a built statement moved up by `offset`, so statements can be joined into one. */
const shifted = (query: Query, offset: number) => query.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);

/** The issuance's inserts as one statement, by number of status entries, built once per process. */
const builtInserts = new Map<number, Query>();

/**
 * The record, its issuance detail and `entries` status entries written by one statement (data-modifying
 * WITH clauses): PostgreSQL applies all or none of it, so no transaction is needed for it alone, and its
 * foreign keys are checked once the whole statement has run. Every column is a placeholder (no value and
 * no id is fixed when it is built); the columns left out take their database defaults. Built once per
 * process and number of entries, so drizzle does not rebuild its SQL on every issuance.
 */
const issuanceInsert = (db: Queryable, entries: number): Query => {
  let built = builtInserts.get(entries);
  if (!built) {
    const parts = [
      db.insert(libraryRecords).values(placeholders('record.', RECORD_COLUMNS)).toSQL(),
      db.insert(credentials).values(placeholders('credential.', ISSUANCE_COLUMNS)).toSQL(),
      ...Array.from({ length: entries }, (_, i) => db.insert(credentialStatusEntries).values(placeholders(`entry${i}.`, ENTRY_COLUMNS)).toSQL()),
    ];
    let offset = 0;
    const clauses = parts.map((part, i) => {
      const clause = `w${i} as (${shifted(part, offset)})`;
      offset += part.params.length;
      return clause;
    });
    built = { sql: `with ${clauses.join(', ')} select 1`, params: parts.flatMap((part) => part.params) };
    builtInserts.set(entries, built);
  }
  return built;
};

/** The id of a credential record about to be written (`insertIssuedCredential`), made before it is sent. */
export const newCredentialId = (): string => createId();

/**
 * Writes the record, its issuance detail and its status entries in one statement (all or nothing), on
 * `db` or inside a caller's transaction, under `id` (`newCredentialId`): a caller knows the id before the
 * statement is answered, so its own statements of the transaction can be sent with it.
 */
export const insertIssuedCredential = async (db: Queryable, id: string, input: NewIssuedCredential): Promise<void> => {
  const now = new Date();
  const record: Values<typeof RECORD_COLUMNS> = {
    id,
    tenantId: input.tenantId,
    origin: 'NATIVE',
    credentialType: input.credentialType,
    coreCredentialType: input.coreCredentialType,
    coreVersion: input.coreVersion,
    name: input.details.name,
    issuerName: input.details.issuerName,
    issuerDid: input.details.issuerDid,
    subjectName: input.details.subjectName,
    subjectId: input.details.subjectId,
    validFrom: input.details.validFrom,
    validUntil: input.details.validUntil,
    detailsStatus: input.detailsError ? 'EXTRACTION_FAILED' : 'EXTRACTED',
    detailsError: input.detailsError,
    productId: input.entities.productId,
    facilityId: input.entities.facilityId,
    organisationId: input.entities.organisationId,
    tags: input.tags,
  };
  const issuance: Values<typeof ISSUANCE_COLUMNS> = {
    id,
    tenantId: input.tenantId,
    credentialType: input.credentialType,
    version: input.version,
    dataModelId: input.dataModelId,
    issuerDid: input.issuerDid,
    vcServiceInstanceId: input.vcServiceInstanceId,
    storageServiceInstanceId: input.storageServiceInstanceId,
    storageUri: input.storageUri,
    storageExternalId: input.storageExternalId,
    digestMultibase: input.digestMultibase,
    encrypted: input.encrypted,
    wrappedDecryptionKey: input.wrappedDecryptionKey,
    humanLinkIncludesKey: input.humanLinkIncludesKey ?? false,
    statusCapture: input.statusEntries.length ? 'CAPTURED' : 'NONE',
    statusCapturedAt: input.statusEntries.length ? now : null,
  };
  const entries = input.statusEntries.map((entry, i) =>
    prefixed(`entry${i}.`, {
      id: createId(),
      credentialId: id,
      tenantId: input.tenantId,
      statusPurpose: entry.statusPurpose,
      type: entry.type,
      statusListCredential: entry.statusListCredential,
      statusListIndex: String(entry.statusListIndex),
      statusListIssuer: input.issuerDid,
      descriptor: entry,
      value: false,
      observedAt: now,
    } satisfies Values<typeof ENTRY_COLUMNS>),
  );
  const values = Object.assign(prefixed('record.', record), prefixed('credential.', issuance), ...entries);
  // Any name turns on postgres.js's `prepare` (drizzle passes nothing else of it): postgres.js then prepares the
  // statement once per connection, keyed by its text (one per entry count), so an issuance sends Bind and Execute only.
  await db._.session.prepareQuery(issuanceInsert(db, input.statusEntries.length), undefined, 'issuance-insert', false).execute(values);
};

/** After a successful IDR publish. */
export const markPublished = async (db: Queryable, tenantId: string, id: string, resolverUri: string | null) => {
  await db
    .update(credentials)
    .set({ isPublished: true, resolverUri, updatedAt: new Date() })
    .where(and(eq(credentials.id, id), eq(credentials.tenantId, tenantId)));
};

export interface CredentialFilter {
  credentialType?: string;
  version?: string;
  organisationId?: string;
  facilityId?: string;
  productId?: string;
  isPublished?: boolean;
}

const filterWhere = (tenantId: string, filter: CredentialFilter): SQL =>
  and(
    eq(credentials.tenantId, tenantId),
    filter.credentialType !== undefined ? eq(credentials.credentialType, filter.credentialType) : undefined,
    filter.version !== undefined ? eq(credentials.version, filter.version) : undefined,
    filter.organisationId !== undefined ? eq(libraryRecords.organisationId, filter.organisationId) : undefined,
    filter.facilityId !== undefined ? eq(libraryRecords.facilityId, filter.facilityId) : undefined,
    filter.productId !== undefined ? eq(libraryRecords.productId, filter.productId) : undefined,
    filter.isPublished !== undefined ? eq(credentials.isPublished, filter.isPublished) : undefined,
  ) as SQL;

const entriesOf = async (db: Queryable, ids: string[]) => {
  if (ids.length === 0) return new Map<string, StatusEntryRow[]>();
  const rows = await db
    .select()
    .from(credentialStatusEntries)
    .where(inArray(credentialStatusEntries.credentialId, ids))
    .orderBy(asc(credentialStatusEntries.statusPurpose));
  const byCredential = new Map<string, StatusEntryRow[]>();
  for (const row of rows) byCredential.set(row.credentialId, [...(byCredential.get(row.credentialId) ?? []), row]);
  return byCredential;
};

/** The tenant's issued credentials, newest first (ties by id), with their status entries (one query each, not per row). */
export const listCredentials = async (db: Queryable, tenantId: string, filter: CredentialFilter, page: { limit: number; offset: number }) => {
  const where = filterWhere(tenantId, filter);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ record: libraryRecords, credential: credentials })
      .from(credentials)
      .innerJoin(libraryRecords, eq(libraryRecords.id, credentials.id))
      .where(where)
      .orderBy(desc(credentials.createdAt), desc(credentials.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(credentials).innerJoin(libraryRecords, eq(libraryRecords.id, credentials.id)).where(where),
  ]);
  const entries = await entriesOf(db, rows.map((r) => r.credential.id));
  return { rows: rows.map((r): CredentialRecord => ({ ...r, statusEntries: entries.get(r.credential.id) ?? [] })), total: counted?.total ?? 0 };
};

/** One of the tenant's issued credentials; undefined for a missing or foreign id alike. */
export const findCredential = async (db: Queryable, tenantId: string, id: string): Promise<CredentialRecord | undefined> => {
  const [row] = await db
    .select({ record: libraryRecords, credential: credentials })
    .from(credentials)
    .innerJoin(libraryRecords, eq(libraryRecords.id, credentials.id))
    .where(and(eq(credentials.id, id), eq(credentials.tenantId, tenantId)));
  if (!row) return undefined;
  const entries = await entriesOf(db, [id]);
  return { ...row, statusEntries: entries.get(id) ?? [] };
};

/**
 * Removes an issued credential's record (its detail, status entries and idempotency claim go with
 * it by cascade); returns what was removed, or undefined when the tenant has no such credential.
 */
export const deleteCredentialRecord = (db: Database, tenantId: string, id: string): Promise<CredentialRow | undefined> =>
  db.transaction(async (tx) => {
    await assertNoPendingStatusOperation(tx, tenantId, id);
    const [removed] = await tx
      .delete(credentials)
      .where(and(eq(credentials.id, id), eq(credentials.tenantId, tenantId)))
      .returning();
    if (!removed) return undefined;
    await tx.delete(libraryRecords).where(and(eq(libraryRecords.id, id), eq(libraryRecords.tenantId, tenantId)));
    return removed;
  });
