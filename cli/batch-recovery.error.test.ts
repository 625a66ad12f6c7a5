import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTenantBatch, findTenantBatchItem } from '../core/batches/batch-repository.ts';
import { connectDatabase, type DatabaseHandle } from '../db/client.ts';
import { credentialBatchItems } from '../db/schema/credential-batches.ts';
import { insertBatch, insertCredential, insertTenant, lateWorkerWrite } from '../test/rig/batch-recovery-fixtures.ts';
import { logLines, runCliHere } from '../test/rig/cli.ts';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

/**
 * Every argument rule and every outcome word of inspect-item and resolve-item. Argument rules run
 * the program in this process (`runCli`, what the bin runs; an OS argv cannot carry a NUL); the
 * fence runs spawned processes, as an operator would.
 */
describe('css-operator batch recovery: refusals', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let env: Record<string, string>;
  let tenantId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = connectDatabase(database.url, { max: 2 });
    env = { RI_DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn' };
    tenantId = await insertTenant(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  const target = (batchId: string, index = 0) => ['--tenant', tenantId, '--batch', batchId, `--index=${index}`];

  describe('argument rules: wrong usage exits 2 with one line naming the argument, and touches nothing', () => {
    it.each<[string, string[], string]>([
      ['a NUL in --tenant', ['inspect-item', '--tenant', 't\0x', '--batch', 'b', '--index=0'], '--tenant: must not contain a NUL character'],
      ['a blank --tenant', ['inspect-item', '--tenant', '  ', '--batch', 'b', '--index=0'], '--tenant: must not be blank'],
      ['a blank --tenant on list-unknown-items', ['list-unknown-items', '--tenant', ''], '--tenant: must not be blank'],
      ['a blank --batch', ['resolve-item', '--tenant', 't', '--batch', '', '--index=0', '--version=1', '--issued=c', '--reason=r'], '--batch: must not be blank'],
      ['--index=-1', ['inspect-item', '--tenant', 't', '--batch', 'b', '--index=-1'], '--index: must be an integer from 0 to 2147483647, got "-1"'],
      ['--index 1.5', ['inspect-item', '--tenant', 't', '--batch', 'b', '--index', '1.5'], '--index: must be an integer from 0 to 2147483647, got "1.5"'],
      [
        '--index -1 (space form of a value starting with a minus sign)',
        ['inspect-item', '--tenant', 't', '--batch', 'b', '--index', '-1'],
        '--index: "-1" reads as an option; a value starting with a minus sign is written --index=<value>',
      ],
      [
        '--reason swallowing the next flag',
        ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--version=1', '--issued=c', '--reason', '--dry-run'],
        '--reason: "--dry-run" reads as an option; a value starting with a minus sign is written --reason=<value>',
      ],
      ['--version 0', ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--version=0', '--issued=c', '--reason=r'], '--version: must be an integer from 1 to 2147483647, got "0"'],
      [
        'neither --issued nor --failed',
        ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--version=1', '--reason=r'],
        'give exactly one of --issued <credentialId>, --issued-from-stored and --failed --evidence <ref>',
      ],
      [
        'both --issued and --failed',
        ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--version=1', '--issued=c', '--failed', '--evidence=e', '--reason=r'],
        'give exactly one of --issued <credentialId>, --issued-from-stored and --failed --evidence <ref>',
      ],
      ['--evidence with --issued', ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--version=1', '--issued=c', '--evidence=e', '--reason=r'], '--evidence: goes with --failed, not --issued'],
      ['a blank --issued', ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--version=1', '--issued= ', '--reason=r'], '--issued: must not be blank'],
      ['a NUL in --reason', ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--version=1', '--issued=c', '--reason=r\0'], '--reason: must not contain a NUL character'],
      ['a NUL in --evidence', ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--version=1', '--failed', '--evidence=e\0', '--reason=r'], '--evidence: must not contain a NUL character'],
    ])('%s', async (_rule, args, message) => {
      const result = await runCliHere(args, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`css-operator: ${message}\n`);
      expect(result.stdout).toBe('');
    });

    it.each<[string, string[], string]>([
      ['a missing --tenant', ['inspect-item', '--batch', 'b', '--index=0'], "required option '--tenant <id>' not specified"],
      ['a missing --version on resolve', ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--issued=c', '--reason=r'], "required option '--version <n>' not specified"],
      ['--dry-run on inspect', ['inspect-item', '--tenant', 't', '--batch', 'b', '--index=0', '--dry-run'], "unknown option '--dry-run'"],
      ['--disclose-request on resolve', ['resolve-item', '--tenant', 't', '--batch', 'b', '--index=0', '--version=1', '--issued=c', '--reason=r', '--disclose-request'], "unknown option '--disclose-request'"],
    ])('%s (commander)', async (_rule, args, message) => {
      const result = await runCliHere(args, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    });
  });

  describe('repository outcomes: resolve prints the outcome word and exits 3, changing nothing', () => {
    const resolve = (batchId: string, index: number, version: number, finding: string[], reason: string[] = ['--reason=TICKET']) =>
      runCliHere(['resolve-item', ...target(batchId, index), `--version=${version}`, ...finding, ...reason], env);

    const expectRefused = async (result: Awaited<ReturnType<typeof runCliHere>>, word: string, batchId?: string, before?: unknown) => {
      expect(result.code).toBe(3);
      expect(result.stdout.split('\n')[0]).toBe(`outcome: ${word}`);
      expect(logLines(result.stderr)).toEqual([expect.objectContaining({ level: 'warn', message: 'Operator resolve-item', outcome: word })]);
      if (batchId) expect(await findTenantBatch(handle.db, tenantId, batchId)).toEqual(before);
    };

    it('reason-missing: no --reason, or a blank one', async () => {
      const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
      await expectRefused(await resolve(batch.id, 0, batch.version, ['--failed', '--evidence=e'], []), 'reason-missing', batch.id, batch);
      await expectRefused(await resolve(batch.id, 0, batch.version, ['--failed', '--evidence=e'], ['--reason=   ']), 'reason-missing', batch.id, batch);
    });

    it('evidence-missing: --failed without --evidence, or with a blank one', async () => {
      const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
      await expectRefused(await resolve(batch.id, 0, batch.version, ['--failed']), 'evidence-missing', batch.id, batch);
      await expectRefused(await resolve(batch.id, 0, batch.version, ['--failed', '--evidence=  ']), 'evidence-missing', batch.id, batch);
    });

    it('missing: no batch with this id', async () => {
      await expectRefused(await resolve('no-such-batch', 0, 1, ['--failed', '--evidence=e']), 'missing');
    });

    it('not-settled: a batch still running, or one already completed', async () => {
      const running = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN', 'PROCESSING'], { settle: false });
      expect(running.batch.state).toBe('RUNNING');
      await expectRefused(await resolve(running.batch.id, 0, running.batch.version, ['--failed', '--evidence=e']), 'not-settled', running.batch.id, running.batch);
      const completed = await insertBatch(handle.db, tenantId, ['FAILED']);
      expect(completed.batch.state).toBe('COMPLETED');
      await expectRefused(await resolve(completed.batch.id, 0, completed.batch.version, ['--failed', '--evidence=e']), 'not-settled', completed.batch.id, completed.batch);
    });

    it('version-mismatch: a version other than the batch is at', async () => {
      const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
      await expectRefused(await resolve(batch.id, 0, batch.version - 1, ['--failed', '--evidence=e']), 'version-mismatch', batch.id, batch);
    });

    it('item-missing: no item at this index', async () => {
      const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
      await expectRefused(await resolve(batch.id, 1, batch.version, ['--failed', '--evidence=e']), 'item-missing', batch.id, batch);
    });

    it('not-unknown: an item that is not OUTCOME_UNKNOWN (here ISSUED) in a batch that needs attention', async () => {
      const { batch } = await insertBatch(handle.db, tenantId, ['ISSUED', 'OUTCOME_UNKNOWN']);
      await expectRefused(await resolve(batch.id, 0, batch.version, ['--failed', '--evidence=e']), 'not-unknown', batch.id, batch);
    });

    it('credential-not-found: no credential with this id', async () => {
      const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
      await expectRefused(await resolve(batch.id, 0, batch.version, ['--issued=no-such-credential']), 'credential-not-found', batch.id, batch);
    });

    it('credential-recorded: a credential another item already records', async () => {
      const credentialId = await insertCredential(handle.db, tenantId);
      await insertBatch(handle.db, tenantId, ['ISSUED'], { credentialIds: [credentialId] });
      const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
      await expectRefused(await resolve(batch.id, 0, batch.version, [`--issued=${credentialId}`]), 'credential-recorded', batch.id, batch);
    });
  });

  it('the fence: a worker write between inspect and resolve makes the stale resolution version-mismatch; inspecting again gives the version that works', async () => {
    const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
    const versionOf = (stdout: string) => /^batchVersion: (\d+)$/m.exec(stdout)![1]!;
    const inspected = await runCliHere(['inspect-item', ...target(batch.id)], env);
    const seen = versionOf(inspected.stdout);
    await lateWorkerWrite(handle.db, tenantId, batch.id, 0);
    const stale = await runCliHere(['resolve-item', ...target(batch.id), `--version=${seen}`, '--failed', '--evidence=e', '--reason=T'], env);
    expect(stale.code).toBe(3);
    expect(stale.stdout.split('\n')[0]).toBe('outcome: version-mismatch');
    expect((await findTenantBatchItem(handle.db, tenantId, batch.id, 0))!.state).toBe('OUTCOME_UNKNOWN');
    const again = await runCliHere(['inspect-item', ...target(batch.id)], env);
    expect(Number(versionOf(again.stdout))).toBeGreaterThan(Number(seen));
    const fresh = await runCliHere(['resolve-item', ...target(batch.id), `--version=${versionOf(again.stdout)}`, '--failed', '--evidence=e', '--reason=T'], env);
    expect(fresh.code).toBe(0);
    expect((await findTenantBatchItem(handle.db, tenantId, batch.id, 0))!.state).toBe('FAILED');
  });

  describe('inspect refusals', () => {
    it('missing and item-missing print the word and exit 3', async () => {
      const missing = await runCliHere(['inspect-item', ...target('no-such-batch')], env);
      expect(missing.code).toBe(3);
      expect(missing.stdout).toBe('outcome: missing\n');
      const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
      const noItem = await runCliHere(['inspect-item', ...target(batch.id, 3)], env);
      expect(noItem.code).toBe(3);
      expect(noItem.stdout).toBe('outcome: item-missing\n');
    });

    it('a request that cannot be decrypted: disclosure cannot complete, exit 1 after the audit line, no plaintext', async () => {
      const { batch } = await insertBatch(handle.db, tenantId, ['OUTCOME_UNKNOWN']);
      await handle.db.update(credentialBatchItems).set({ sealedRequest: 'v1.AAAA.BBBB' }).where(eq(credentialBatchItems.batchId, batch.id));
      const result = await runCliHere(['inspect-item', ...target(batch.id), '--disclose-request'], env);
      expect(result.code).toBe(1);
      expect(result.stdout).not.toContain('request:');
      expect(logLines(result.stderr)).toEqual([expect.objectContaining({ message: 'Operator inspect-item', discloseRequest: true })]);
      expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^css-operator: /);
    });

    it('a bad setting fails before any database work: exit 1 naming it', async () => {
      const result = await runCliHere(['inspect-item', ...target('b')], { ...env, LOG_REDACT_PATHS: 'a..b' });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('css-operator: LOG_REDACT_PATHS: "a..b" is not a path of field names or * separated by dots [CONFIG_INVALID]\n');
    });
  });
});
