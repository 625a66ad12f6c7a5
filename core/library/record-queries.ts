import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import {
  credentials,
  credentialStatusEntries,
  externalCredentials,
  libraryRecords,
  verificationRuns,
  type RunSummary,
} from '../../db/schema/index.ts';
import { CORE_TYPE_CODES, type CoreTypeCode } from './credential-types.ts';
import type { RunRow } from './verification-envelope.ts';

export type LibraryRecordRow = typeof libraryRecords.$inferSelect;
export type NativeRow = typeof credentials.$inferSelect;
export type ExternalRow = typeof externalCredentials.$inferSelect;
export type StatusEntryRow = typeof credentialStatusEntries.$inferSelect;

/** Everything the API shows of one record: the parent, its one child, its latest run and its status entries. */
export interface RecordView {
  record: LibraryRecordRow;
  native: NativeRow | null;
  external: ExternalRow | null;
  latestRun: RunRow | null;
  statusEntries: StatusEntryRow[];
}

export interface LibraryFilters {
  types?: CoreTypeCode[];
  origin?: 'native' | 'external';
  organisationId?: string;
  facilityId?: string;
  productId?: string;
  issuer?: string;
  encrypted?: boolean;
  status?: RunSummary;
  /** Inclusive UTC day bounds as instants: [issuedFrom 00:00, issuedTo + 1 day). */
  issuedFrom?: Date;
  issuedBefore?: Date;
  tags?: string[];
  excludeTags?: string[];
}

export type LibrarySort = 'issuedAt:asc' | 'issuedAt:desc' | 'createdAt:asc' | 'createdAt:desc';

const r = libraryRecords;

/** The latest generation's summary; a native record without runs stands on its issuance assertion (verified). */
const latestSummary = sql`coalesce(
  (select ${verificationRuns.summary} from ${verificationRuns} where ${verificationRuns.recordId} = ${r.id} order by ${verificationRuns.generation} desc limit 1),
  case when ${r.origin} = 'NATIVE' then 'verified'::verification_summary end)`;

const encryptedOf = sql`coalesce(
  (select ${credentials.encrypted} from ${credentials} where ${credentials.id} = ${r.id}),
  (select ${externalCredentials.encrypted} from ${externalCredentials} where ${externalCredentials.id} = ${r.id}))`;

const conditionsOf = (tenantId: string, f: LibraryFilters): SQL[] => {
  const where: SQL[] = [eq(r.tenantId, tenantId)];
  if (f.types?.length) where.push(inArray(r.coreCredentialType, f.types.map((code) => CORE_TYPE_CODES[code])));
  if (f.origin) where.push(eq(r.origin, f.origin === 'native' ? 'NATIVE' : 'EXTERNAL'));
  if (f.organisationId) where.push(eq(r.organisationId, f.organisationId));
  if (f.facilityId) where.push(eq(r.facilityId, f.facilityId));
  if (f.productId) where.push(eq(r.productId, f.productId));
  if (f.issuer) where.push(sql`(lower(${r.issuerName}) = lower(${f.issuer}) or ${r.issuerDid} = ${f.issuer})`);
  if (f.encrypted !== undefined) where.push(sql`${encryptedOf} = ${f.encrypted}`);
  if (f.status) where.push(sql`${latestSummary} = ${f.status}`);
  if (f.issuedFrom) where.push(sql`${r.validFrom} >= ${f.issuedFrom.toISOString()}`);
  if (f.issuedBefore) where.push(sql`${r.validFrom} < ${f.issuedBefore.toISOString()}`);
  // OR within a list, AND across the two, and exclusion wins (a record carrying both is excluded).
  if (f.tags?.length) where.push(sql`${r.tags} && ${toTextArray(f.tags)}`);
  if (f.excludeTags?.length) where.push(sql`not (${r.tags} && ${toTextArray(f.excludeTags)})`);
  return where;
};

const toTextArray = (values: string[]) => sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`;

const orderOf = (sort: LibrarySort): SQL[] => {
  const [field, direction] = sort.split(':') as ['issuedAt' | 'createdAt', 'asc' | 'desc'];
  const column = field === 'issuedAt' ? r.validFrom : r.createdAt;
  // Records without an issue date sort last either way; ties are broken by id ascending.
  return [direction === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`, asc(r.id)];
};

/**
 * One page of the tenant's record ids matching the filters, in the requested order, and the total.
 * With a costly filter (tags, the latest generation's summary) the total comes from the same statement
 * (`count(*) over()`), so the filter runs once; otherwise a separate count is cheaper than counting
 * every row before the page is cut.
 */
export const listRecordIds = async (
  db: Queryable,
  tenantId: string,
  filters: LibraryFilters,
  sort: LibrarySort,
  page: { limit: number; offset: number },
): Promise<{ ids: string[]; total: number }> => {
  const where = and(...conditionsOf(tenantId, filters));
  const costly = Boolean(filters.status || filters.tags?.length || filters.excludeTags?.length);
  if (costly) {
    const rows = await db
      .select({ id: r.id, total: sql<number>`count(*) over()`.mapWith(Number) })
      .from(r)
      .where(where)
      .orderBy(...orderOf(sort))
      .limit(page.limit)
      .offset(page.offset);
    if (rows.length > 0 || page.offset === 0) return { ids: rows.map((row) => row.id), total: rows[0]?.total ?? 0 };
  }
  const [rows, [count]] = await Promise.all([
    costly ? Promise.resolve([]) : db.select({ id: r.id }).from(r).where(where).orderBy(...orderOf(sort)).limit(page.limit).offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(r).where(where),
  ]);
  return { ids: rows.map((row) => row.id), total: count!.total };
};

/** The views of the given ids that belong to the tenant (others are simply absent), in four queries whatever their number. */
export const loadRecordViews = async (db: Queryable, tenantId: string, ids: string[]): Promise<Map<string, RecordView>> => {
  const views = new Map<string, RecordView>();
  if (ids.length === 0) return views;
  const [records, runs, entries] = await Promise.all([
    db
      .select({ record: r, native: credentials, external: externalCredentials })
      .from(r)
      .leftJoin(credentials, eq(credentials.id, r.id))
      .leftJoin(externalCredentials, eq(externalCredentials.id, r.id))
      .where(and(eq(r.tenantId, tenantId), inArray(r.id, ids))),
    db
      .selectDistinctOn([verificationRuns.recordId])
      .from(verificationRuns)
      .where(and(eq(verificationRuns.tenantId, tenantId), inArray(verificationRuns.recordId, ids)))
      .orderBy(verificationRuns.recordId, desc(verificationRuns.generation)),
    db
      .select()
      .from(credentialStatusEntries)
      .where(and(eq(credentialStatusEntries.tenantId, tenantId), inArray(credentialStatusEntries.credentialId, ids)))
      .orderBy(credentialStatusEntries.statusPurpose),
  ]);
  for (const row of records) views.set(row.record.id, { ...row, latestRun: null, statusEntries: [] });
  for (const run of runs) {
    const view = views.get(run.recordId);
    if (view) view.latestRun = run;
  }
  for (const entry of entries) views.get(entry.credentialId)?.statusEntries.push(entry);
  return views;
};

export const loadRecordView = async (db: Queryable, tenantId: string, id: string): Promise<RecordView | undefined> =>
  (await loadRecordViews(db, tenantId, [id])).get(id);
