import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTenantBatch, findTenantBatchItem } from '../core/batches/batch-repository.ts';
import { connectDatabase, type DatabaseHandle } from '../db/client.ts';
import { credentialBatchItems } from '../db/schema/credential-batches.ts';
import { insertBatch, insertCredential, insertTenant } from '../test/rig/batch-recovery-fixtures.ts';
import { logLines, postgresParts, spawnCli } from '../test/rig/cli.ts';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

const DAY_MS = 86_400_000;

describe('css-operator inspect-item and resolve-item: the operator recovers a batch', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let env: Record<string, string>;
  let tenantId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = connectDatabase(database.url, { max: 2 });
    // The database from the RI_POSTGRES_* parts, as the spec says the operator commands derive it.
    env = { ...postgresParts(database.url), DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn', BATCH_RETENTION_DAYS: '7' };
    tenantId = await insertTenant(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  /** Jobs of every queue; none while no process has created pg-boss's schema yet. */
  const jobCount = async () => {
    const [schema] = await handle.db.execute<{ t: string | null }>(sql`select to_regclass('pgboss.job')::text as t`);
    if (!schema?.t) return 0;
    return (await handle.db.execute<{ n: number }>(sql`select count(*)::int as n from pgboss.job`))[0]!.n;
  };

  it('--help of the CLI and of each command lists the arguments and the exit codes', async () => {
    const top = await spawnCli(['--help'], {}, true);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('inspect-item');
    expect(top.stdout).toContain('resolve-item');
    expect(top.stdout).toContain('3  refused');
    const inspect = await spawnCli(['inspect-item', '--help']);
    expect(inspect.code).toBe(0);
    for (const option of ['--tenant <id>', '--batch <id>', '--index <n>', '--reason <ticket>', '--disclose-request', 'Exit codes:']) {
      expect(inspect.stdout).toContain(option);
    }
    const resolve = await spawnCli(['resolve-item', '--help']);
    expect(resolve.code).toBe(0);
    for (const option of ['--version <n>', '--issued <credentialId>', '--failed', '--evidence <ref>', '--dry-run', 'version-mismatch', 'credential-recorded']) {
      expect(resolve.stdout).toContain(option);
    }
  });

  it('inspect prints the item, the batch and its version, and writes the access audit line at warn', async () => {
    const { batch } = await insertBatch(handle.db, tenantId, ['ISSUED', 'OUTCOME_UNKNOWN']);
    const result = await spawnCli(['inspect-item', '--tenant', tenantId, '--batch', batch.id, '--index=1', '--reason', 'TICKET-1'], env, true);
    expect(result.code).toBe(0);
    const printed = Object.fromEntries(result.stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
    expect(printed).toMatchObject({
      batch: batch.id,
      batchState: 'NEEDS_ATTENTION',
      batchVersion: String(batch.version),
      batchRequestDigest: batch.bodyDigest,
      batchCorrelationId: batch.correlationId,
      batchCreatedAt: batch.createdAt.toISOString(),
      batchSettledAt: batch.settledAt!.toISOString(),
      index: '1',
      itemState: 'OUTCOME_UNKNOWN',
      itemReference: 'ref-1',
      itemCorrelationId: 'item-correlation-1',
      credentialId: '-',
      error: '-',
    });
    expect(printed).not.toHaveProperty('request');
    const [audit, ...more] = logLines(result.stderr);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ level: 'warn', message: 'Operator inspect-item', tenantId, batchId: batch.id, index: 1, reason: 'TICKET-1', discloseRequest: false });
    expect(audit!.operator).toEqual(expect.any(String));
  });

  it('inspect without --reason audits it as an item inspection; --disclose-request prints the decrypted request after the audit line', async () => {
    const { batch, requests } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
    const result = await spawnCli(['inspect-item', '--tenant', tenantId, '--batch', batch.id, '--index', '0', '--disclose-request'], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe(`request: ${JSON.stringify(requests[0])}`);
    expect(logLines(result.stderr)).toEqual([
      expect.objectContaining({ level: 'warn', message: 'Operator inspect-item', reason: 'item inspection', discloseRequest: true }),
    ]);
    // The audit line carries who and what, never the request.
    expect(result.stderr).not.toContain('secret product');
  });

  it('resolve as issued: the item records the credential, the last unknown settles the batch COMPLETED with a new retention window, no job is queued', async () => {
    const credentialId = await insertCredential(handle.db, tenantId);
    const { batch } = await insertBatch(handle.db, tenantId, ['ISSUED', 'OUTCOME_UNKNOWN']);
    expect(batch.expiresAt).toBeNull();
    const jobsBefore = await jobCount();
    const result = await spawnCli(
      ['resolve-item', '--tenant', tenantId, '--batch', batch.id, '--index=1', `--version=${batch.version}`, '--issued', credentialId, '--reason', 'TICKET-7'],
      env,
    );
    expect(result.stderr.split('\n').filter((l) => l && !l.startsWith('{'))).toEqual([]);
    expect(result.code).toBe(0);
    const after = (await findTenantBatch(handle.db, tenantId, batch.id))!;
    const item = (await findTenantBatchItem(handle.db, tenantId, batch.id, 1))!;
    expect(result.stdout.trim().split('\n')).toEqual([
      'outcome: resolved',
      `before: item OUTCOME_UNKNOWN, batch NEEDS_ATTENTION version ${batch.version}`,
      `after: item ISSUED credentialId=${credentialId}, batch COMPLETED version ${after.version} expiresAt=${after.expiresAt!.toISOString()}`,
    ]);
    expect(item).toMatchObject({ state: 'ISSUED', credentialId, resolutionReason: 'TICKET-7', errorCode: null });
    expect(after).toMatchObject({ state: 'COMPLETED', unknownCount: 0, issuedCount: 2 });
    expect(after.resolvedAt).not.toBeNull();
    expect(after.expiresAt!.getTime() - after.resolvedAt!.getTime()).toBe(7 * DAY_MS);
    expect(after.settledAt).toEqual(batch.settledAt);
    expect(await jobCount()).toBe(jobsBefore);
    expect(logLines(result.stderr)).toEqual([
      expect.objectContaining({ level: 'warn', message: 'Operator resolve-item', tenantId, batchId: batch.id, index: 1, reason: 'TICKET-7', outcome: 'resolved', dryRun: false }),
    ]);
  });

  it('resolve as failed keeps the evidence; a tenant then sees OPERATOR_CONFIRMED_FAILED; cancelled items make the batch CANCELLED', async () => {
    const { batch } = await insertBatch(handle.db, tenantId, ['CANCELLED', 'OUTCOME_UNKNOWN', 'OUTCOME_UNKNOWN']);
    const first = await spawnCli(
      ['resolve-item', '--tenant', tenantId, '--batch', batch.id, '--index=1', `--version=${batch.version}`, '--failed', '--evidence', 'vc-log-2024-01', '--reason', 'TICKET-9'],
      env,
    );
    expect(first.code).toBe(0);
    const middle = (await findTenantBatch(handle.db, tenantId, batch.id))!;
    // One unknown remains: the batch still needs attention and has no expiry.
    expect(middle).toMatchObject({ state: 'NEEDS_ATTENTION', unknownCount: 1, failedCount: 1, expiresAt: null });
    const item = (await findTenantBatchItem(handle.db, tenantId, batch.id, 1))!;
    expect(item).toMatchObject({
      state: 'FAILED',
      resolutionReason: 'TICKET-9',
      resolutionEvidence: 'vc-log-2024-01',
      errorCode: 'OPERATOR_CONFIRMED_FAILED',
      errorMessage: 'An operator confirmed this item was not issued.',
    });
    const last = await spawnCli(
      ['resolve-item', '--tenant', tenantId, '--batch', batch.id, '--index=2', `--version=${middle.version}`, '--failed', '--evidence=ref', '--reason=T-10'],
      env,
    );
    expect(last.code).toBe(0);
    expect(await findTenantBatch(handle.db, tenantId, batch.id)).toMatchObject({ state: 'CANCELLED', unknownCount: 0, cancelledCount: 1, failedCount: 2 });
  });

  it('--dry-run shows the change and rolls it back', async () => {
    const credentialId = await insertCredential(handle.db, tenantId);
    const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
    const result = await spawnCli(
      ['resolve-item', '--tenant', tenantId, '--batch', batch.id, '--index=0', `--version=${batch.version}`, '--issued', credentialId, '--reason', 'T-1', '--dry-run'],
      env,
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('outcome: dry-run');
    expect(lines[2]).toMatch(new RegExp(`^after: item ISSUED credentialId=${credentialId}, batch COMPLETED version \\d+ expiresAt=`));
    expect(lines.at(-1)).toBe('Dry run: nothing was changed.');
    expect(await findTenantBatch(handle.db, tenantId, batch.id)).toEqual(batch);
    const [item] = await handle.db.select().from(credentialBatchItems).where(eq(credentialBatchItems.batchId, batch.id));
    expect(item).toMatchObject({ state: 'OUTCOME_UNKNOWN', credentialId: null, resolutionReason: null, resolvedAt: null });
    expect(logLines(result.stderr)).toEqual([expect.objectContaining({ message: 'Operator resolve-item', dryRun: true, outcome: 'dry-run' })]);
  });

  it('RI_DATABASE_URL works as well as the RI_POSTGRES_* parts', async () => {
    const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
    const result = await spawnCli(['inspect-item', '--tenant', tenantId, '--batch', batch.id, '--index=0'], {
      RI_DATABASE_URL: database.url,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`batchVersion: ${batch.version}`);
  });

  it('list-unknown-items lists every unknown item of the batches needing attention, with progress a page at a time', async () => {
    const listed = await insertTenant(handle.db, 'Many batches');
    const batches = [];
    for (let i = 0; i < 101; i++) batches.push((await insertBatch(handle.db, listed, i === 0 ? ['OUTCOME_UNKNOWN', 'ISSUED', 'OUTCOME_UNKNOWN'] : ['OUTCOME_UNKNOWN'])).batch);
    await insertBatch(handle.db, listed, ['FAILED']); // settled COMPLETED: not listed
    const result = await spawnCli(['list-unknown-items', '--tenant', listed], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(102);
    const first = batches[0]!;
    expect(lines).toContain(
      `tenant=${listed} batch=${first.id} version=${first.version} index=2 reference=ref-2 itemCorrelationId=item-correlation-2`,
    );
    const notes = result.stderr.split('\n').filter((l) => l && !l.startsWith('{'));
    expect(notes).toEqual(['progress: 100/101 batches', 'progress: 101/101 batches', '102 unknown item(s) in 101 batch(es) needing attention']);
    expect(logLines(result.stderr)).toEqual([expect.objectContaining({ level: 'warn', message: 'Operator list-unknown-items', tenantId: listed })]);
  });
});
