import { and, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { credentialBatches, credentials, dids, verificationRuns } from '../../db/schema/index.ts';

/** What the console's dashboard counts, for one tenant: every number is one indexed aggregate, read together. */
export interface DashboardCounts {
  issuedToday: number;
  issuedThisWeek: number;
  batchesRunning: number;
  batchesNeedingAttention: number;
  libraryPending: number;
  libraryFailed: number;
  didsNotVerified: number;
}

/** Midnight UTC of `now`, and of the Monday of its week. */
export const dayAndWeekStart = (now: Date) => {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const week = new Date(day);
  week.setUTCDate(week.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return { day, week };
};

const total = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;

/**
 * The dashboard's numbers. Library items count by their latest verification run (pending or failed);
 * DIDs "not verified" are the tenant's own that are unverified or failed their verification.
 */
export const dashboardCounts = async (db: Database, tenantId: string, now = new Date()): Promise<DashboardCounts> => {
  const { day, week } = dayAndWeekStart(now);
  const issuedSince = (since: Date) =>
    total(db.select({ n: count() }).from(credentials).where(and(eq(credentials.tenantId, tenantId), gte(credentials.createdAt, since))));
  const batches = (state: 'RUNNING' | 'NEEDS_ATTENTION') =>
    total(db.select({ n: count() }).from(credentialBatches).where(and(eq(credentialBatches.tenantId, tenantId), eq(credentialBatches.state, state))));
  const latestRuns = db
    .selectDistinctOn([verificationRuns.recordId], { summary: verificationRuns.summary })
    .from(verificationRuns)
    .where(eq(verificationRuns.tenantId, tenantId))
    .orderBy(verificationRuns.recordId, sql`${verificationRuns.createdAt} desc`)
    .as('latest');
  const [issuedToday, issuedThisWeek, batchesRunning, batchesNeedingAttention, library, didsNotVerified] = await Promise.all([
    issuedSince(day),
    issuedSince(week),
    batches('RUNNING'),
    batches('NEEDS_ATTENTION'),
    db.select({ summary: latestRuns.summary, n: count() }).from(latestRuns).groupBy(latestRuns.summary),
    total(db.select({ n: count() }).from(dids).where(and(eq(dids.tenantId, tenantId), inArray(dids.status, ['UNVERIFIED', 'VERIFICATION_FAILED'])))),
  ]);
  const bySummary = (summary: string) => library.find((row) => row.summary === summary)?.n ?? 0;
  return { issuedToday, issuedThisWeek, batchesRunning, batchesNeedingAttention, libraryPending: bySummary('pending'), libraryFailed: bySummary('failed'), didsNotVerified };
};
