import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTenantBatch, findTenantBatchItem } from '../core/batches/batch-repository.ts';
import { credentialBatchItems } from '../db/schema/credential-batches.ts';
import { credentials, credentialStatusEntries, libraryRecords } from '../db/schema/credentials.ts';
import { insertBatch } from '../test/rig/batch-recovery-fixtures.ts';
import { logLines, postgresParts, spawnCli } from '../test/rig/cli.ts';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../test/rig/credential-fixtures.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

describe('css-operator resolve-item --issued-from-stored: the operator adopts the copy a lost attempt stored', () => {
  let rig: IssuanceRig;
  let tenantId: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    rig = await startIssuanceRig();
    tenantId = await rig.t.tenantOf('tenantA');
    env = { ...postgresParts(rig.t.databaseUrl), DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn', FETCH_ALLOW_PRIVATE_URLS: 'true' };
  }, 120_000);
  afterAll(() => rig?.close());

  const body = (extra: Record<string, unknown> = {}) =>
    issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did), { storageOptions: { encrypt: false }, ...extra });

  /**
   * What a worker killed between storing and recording leaves: signed and stored under the item's
   * correlation id, no record. Made by issuing through the API under that id, then removing the record.
   */
  const lostAttempt = async (request: Record<string, unknown>) => {
    const correlationId = `lost-${crypto.randomUUID()}`;
    const res = await rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body: request, headers: { 'x-correlation-id': correlationId } });
    expect(res.status, res.text).toBe(201);
    const id = res.body.credentialId as string;
    const [original] = await rig.t.db.select().from(credentials).where(eq(credentials.id, id));
    const entries = await rig.t.db.select().from(credentialStatusEntries).where(eq(credentialStatusEntries.credentialId, id));
    await rig.t.db.delete(libraryRecords).where(eq(libraryRecords.id, id));
    return { correlationId, original: original!, entries };
  };
  /** An unknown item of a batch needing attention whose request and correlation id are given. */
  const unknownItem = async (request: Record<string, unknown>, correlationId: string) => {
    const { batch } = await insertBatch(rig.t.db, tenantId, ['OUTCOME_UNKNOWN']);
    await rig.t.db
      .update(credentialBatchItems)
      .set({ correlationId, sealedRequest: await rig.t.services.secretBox.encrypt(JSON.stringify(request)) })
      .where(and(eq(credentialBatchItems.batchId, batch.id), eq(credentialBatchItems.index, 0)));
    return batch;
  };
  const adopt = (batch: { id: string; version: number }, extra: string[] = []) =>
    spawnCli(['resolve-item', '--tenant', tenantId, '--batch', batch.id, '--index=0', `--version=${batch.version}`, '--issued-from-stored', '--reason=TICKET-42', ...extra], env);
  const recordCount = async () => (await rig.t.db.select({ n: sql<number>`count(*)::int` }).from(credentials).where(eq(credentials.tenantId, tenantId)))[0]!.n;

  it('records the credential from the stored copy (same URI, digest and status entries as the lost attempt had) and resolves the item; --dry-run writes nothing', async () => {
    const request = body();
    const { correlationId, original, entries } = await lostAttempt(request);
    const batch = await unknownItem(request, correlationId);
    const records = await recordCount();

    const dry = await adopt(batch, ['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n')[0]).toBe('outcome: dry-run');
    expect(dry.stdout).toContain(`storedCopy: ${original.storageUri} payloadDigest=`);
    expect(await recordCount()).toBe(records);
    expect((await findTenantBatchItem(rig.t.db, tenantId, batch.id, 0))!.state).toBe('OUTCOME_UNKNOWN');

    const result = await adopt(batch);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('outcome: resolved');
    const item = (await findTenantBatchItem(rig.t.db, tenantId, batch.id, 0))!;
    expect(item).toMatchObject({ state: 'ISSUED', resolutionReason: 'TICKET-42', errorCode: null });
    expect(lines).toContain(`after: item ISSUED credentialId=${item.credentialId}, batch COMPLETED version ${(await findTenantBatch(rig.t.db, tenantId, batch.id))!.version} expiresAt=${(await findTenantBatch(rig.t.db, tenantId, batch.id))!.expiresAt!.toISOString()}`);
    const [adopted] = await rig.t.db.select().from(credentials).where(eq(credentials.id, item.credentialId!));
    expect(adopted).toMatchObject({
      tenantId,
      issuerDid: original.issuerDid,
      storageUri: original.storageUri,
      storageExternalId: original.storageExternalId,
      digestMultibase: original.digestMultibase,
      storageServiceInstanceId: original.storageServiceInstanceId,
      vcServiceInstanceId: original.vcServiceInstanceId,
      encrypted: false,
      statusCapture: original.statusCapture,
    });
    const adoptedEntries = await rig.t.db.select().from(credentialStatusEntries).where(eq(credentialStatusEntries.credentialId, adopted!.id));
    const entryKey = (e: typeof entries[number]) => `${e.statusPurpose} ${e.statusListCredential}#${e.statusListIndex}`;
    expect(adoptedEntries.map(entryKey).sort()).toEqual(entries.map(entryKey).sort());
    expect(entries.length).toBeGreaterThan(0);
    // The tenant sees it as any other credential of theirs.
    expect((await rig.t.call('GET', `/api/v1/credentials/${adopted!.id}`, { token: rig.token })).status).toBe(200);
    expect(logLines(result.stderr)).toEqual([
      expect.objectContaining({ message: 'Operator resolve-item', outcome: 'resolved', finding: { as: 'issued-from-stored' }, storedCopy: original.storageUri }),
    ]);
    // A second item pointing at the same copy cannot record it again.
    const twice = await adopt(await unknownItem(request, correlationId));
    expect(twice.code).toBe(3);
    expect(twice.stdout.split('\n')[0]).toBe('outcome: credential-recorded');
  });

  it('refuses a copy that is not the item\'s credential, an item with no stored copy, and an encrypted copy; nothing is recorded', async () => {
    const request = body();
    const { correlationId } = await lostAttempt(request);
    const records = await recordCount();
    const other = body();
    (other.credentialPayload as Record<string, unknown>).name = 'Another product';
    const mismatch = await adopt(await unknownItem(other, correlationId));
    expect(mismatch.code).toBe(3);
    expect(mismatch.stdout.split('\n')[0]).toBe('outcome: stored-copy-mismatch');
    expect(mismatch.stdout).toContain("not this item's credential");

    const none = await adopt(await unknownItem(request, `never-${crypto.randomUUID()}`));
    expect(none.code).toBe(3);
    expect(none.stdout.split('\n')[0]).toBe('outcome: no-stored-copy');

    const sealed = body({ storageOptions: { encrypt: true } });
    const lostSealed = await lostAttempt(sealed);
    const encrypted = await adopt(await unknownItem(sealed, lostSealed.correlationId));
    expect(encrypted.code).toBe(3);
    expect(encrypted.stdout.split('\n')[0]).toBe('outcome: stored-copy-encrypted');
    expect(await recordCount()).toBe(records);
  });

  it('usage: --issued-from-stored with --issued, --failed or --evidence is refused with exit 2', async () => {
    for (const extra of [['--issued=c1'], ['--failed'], ['--evidence=e']]) {
      const result = await spawnCli(['resolve-item', '--tenant', tenantId, '--batch', 'b', '--index=0', '--version=1', '--issued-from-stored', '--reason=T', ...extra], env);
      expect(result.code, extra.join(' ')).toBe(2);
    }
  });
});
