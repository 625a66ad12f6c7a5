import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { findBatchItems } from '../../core/batches/batch-repository.ts';
import { credentialBatches } from '../../db/schema/index.ts';
import type { TestApp } from './test-app.ts';

export const BATCHES = '/api/v1/credentials/batches';

/** A request that passes submission checks (the data model and DID are checked by the worker, not here). */
export const item = (extra: Record<string, unknown> = {}) => ({
  credentialType: 'DigitalProductPassport',
  version: '0.7.0',
  credentialPayload: { type: ['VerifiableCredential', 'DigitalProductPassport'], credentialSubject: { name: 'Widget' } },
  ...extra,
});

/** Submits with a fresh Idempotency-Key unless one is given (`null`: without the header). */
export const submit = (t: TestApp, token: string, body: unknown, key: string | null = crypto.randomUUID(), headers: Record<string, string> = {}) =>
  t.call('POST', BATCHES, { token, body, headers: { ...(key === null ? {} : { 'idempotency-key': key }), ...headers } });

export const batchRow = async (db: Database, id: string) => (await db.select().from(credentialBatches).where(eq(credentialBatches.id, id)))[0];

/** A batch's items in index order: the repository's own read. */
export const itemRows = findBatchItems;

export const batchCount = async (db: Database) => (await db.select({ n: sql<number>`count(*)::int` }).from(credentialBatches))[0]!.n;

/** Jobs of the issue queue for one batch (the pgboss schema exists once a producer or the worker started). */
export const issueJobs = (db: Database, batchId: string) =>
  db.execute<{ state: string; expire_seconds: number; start_after: Date }>(
    sql`select state, expire_seconds, start_after from pgboss.job where name = 'credentials.issue-batch' and data->>'batchId' = ${batchId}`,
  );
