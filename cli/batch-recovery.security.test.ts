import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTenantBatch, findTenantBatchItem } from '../core/batches/batch-repository.ts';
import { connectDatabase, type DatabaseHandle } from '../db/client.ts';
import { insertBatch, insertCredential, insertTenant } from '../test/rig/batch-recovery-fixtures.ts';
import { logLines, runCliHere, spawnCli } from '../test/rig/cli.ts';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

/** Tenancy and secrecy of the batch recovery commands. */
describe('css-operator batch recovery: tenancy and disclosure', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let env: Record<string, string>;
  let owner: string;
  let other: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = connectDatabase(database.url, { max: 2 });
    env = { RI_DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
    owner = await insertTenant(handle.db, 'Owner');
    other = await insertTenant(handle.db, 'Other');
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it("another tenant's batch is `missing`, exactly as a batch that does not exist, for inspect and resolve; nothing changes", async () => {
    const { batch } = await insertBatch(handle.db, owner, ['OUTCOME_UNKNOWN']);
    const asOther = (id: string) => ['--tenant', other, '--batch', id, '--index=0'];
    const foreignInspect = await runCliHere(['inspect-item', ...asOther(batch.id), '--disclose-request'], env);
    const missingInspect = await runCliHere(['inspect-item', ...asOther('no-such-batch'), '--disclose-request'], env);
    expect(foreignInspect.code).toBe(3);
    expect(foreignInspect.stdout).toBe(missingInspect.stdout);
    expect(foreignInspect.stdout).toBe('outcome: missing\n');
    expect(foreignInspect.stdout + foreignInspect.stderr).not.toContain('secret product');

    const resolve = (id: string) => runCliHere(['resolve-item', ...asOther(id), `--version=${batch.version}`, '--failed', '--evidence=e', '--reason=T'], env);
    const foreignResolve = await resolve(batch.id);
    const missingResolve = await resolve('no-such-batch');
    expect(foreignResolve.code).toBe(3);
    expect(foreignResolve.stdout).toBe(missingResolve.stdout);
    expect(await findTenantBatch(handle.db, owner, batch.id)).toEqual(batch);
  });

  it("another tenant's credential is credential-not-found and is not recorded", async () => {
    const foreignCredential = await insertCredential(handle.db, other);
    const { batch } = await insertBatch(handle.db, owner, ['OUTCOME_UNKNOWN']);
    const result = await runCliHere(
      ['resolve-item', '--tenant', owner, '--batch', batch.id, '--index=0', `--version=${batch.version}`, `--issued=${foreignCredential}`, '--reason=T'],
      env,
    );
    expect(result.code).toBe(3);
    expect(result.stdout.split('\n')[0]).toBe('outcome: credential-not-found');
    expect(await findTenantBatchItem(handle.db, owner, batch.id, 0)).toMatchObject({ state: 'OUTCOME_UNKNOWN', credentialId: null });
  });

  it('disclosure is refused at LOG_LEVEL=error (the audit line would not be written): exit 1, no plaintext, no database work', async () => {
    const { batch } = await insertBatch(handle.db, owner, ['OUTCOME_UNKNOWN']);
    const result = await spawnCli(['inspect-item', '--tenant', owner, '--batch', batch.id, '--index=0', '--disclose-request'], { ...env, LOG_LEVEL: 'error' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('css-operator: --disclose-request is refused when LOG_LEVEL is error: the access audit line would not be written\n');
    // Without disclosure the same inspection works at LOG_LEVEL=error.
    const plain = await spawnCli(['inspect-item', '--tenant', owner, '--batch', batch.id, '--index=0'], { ...env, LOG_LEVEL: 'error' });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('secret product');
  });

  it('audit lines never carry the request, and LOG_REDACT_PATHS applies to them', async () => {
    const { batch } = await insertBatch(handle.db, owner, ['OUTCOME_UNKNOWN']);
    const result = await runCliHere(
      ['inspect-item', '--tenant', owner, '--batch', batch.id, '--index=0', '--reason=ACME-incident-42', '--disclose-request'],
      { ...env, LOG_REDACT_PATHS: 'reason' },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('secret product');
    const [audit] = logLines(result.stderr);
    expect(audit).toMatchObject({ message: 'Operator inspect-item', reason: '[Redacted]', tenantId: owner });
    expect(result.stderr).not.toContain('secret product');
    expect(result.stderr).not.toContain('ACME-incident-42');
  });

  it("list-unknown-items --tenant shows none of another tenant's items", async () => {
    const { batch } = await insertBatch(handle.db, other, ['OUTCOME_UNKNOWN']);
    const mine = await insertBatch(handle.db, owner, ['OUTCOME_UNKNOWN']);
    const result = await runCliHere(['list-unknown-items', '--tenant', owner], env);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(batch.id);
    expect(result.stdout).not.toContain(other);
    expect(result.stdout).toContain(mine.batch.id);
  });
});
