import { createHash } from 'node:crypto';
import { eq, and } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../core/crypto/secret-box.ts';
import { connectDatabase, type DatabaseHandle } from '../db/client.ts';
import { credentialBatchItems } from '../db/schema/credential-batches.ts';
import { serviceInstances } from '../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../db/system-tenant.ts';
import { startStorage, type StorageHarness } from '../storage-service/test/storage-harness.ts';
import { sampleCredential, startVcService, type VcService } from '../vc-service/test/vc-harness.ts';
import { insertBatch, insertTenant } from '../test/rig/batch-recovery-fixtures.ts';
import { postgresParts, spawnCli } from '../test/rig/cli.ts';
import { storageConfig } from '../test/rig/credential-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { vcConfig } from '../test/rig/did-fixtures.ts';
import { freePort } from '../test/rig/postgres-server.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

/** `name: value` lines of a run's stdout, every value of a repeated name kept. */
const fields = (stdout: string) => {
  const out: Record<string, string[]> = {};
  for (const line of stdout.trim().split('\n')) (out[line.slice(0, line.indexOf(':'))] ??= []).push(line.slice(line.indexOf(':') + 2));
  return out;
};

describe('css-operator inspect-item: what the VC and storage services did for an unknown item', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let vc: VcService;
  let storage: StorageHarness;
  let env: Record<string, string>;
  const box = new SecretBox(TEST_ENCRYPTION_KEY);

  const addInstance = async (tenantId: string, serviceType: 'VC' | 'STORAGE', config: object) => {
    const adapterType = serviceType === 'VC' ? 'VC_ADAPTER' : 'STORAGE_ADAPTER';
    const [row] = await handle.db
      .insert(serviceInstances)
      .values({ tenantId, serviceType, adapterType, name: `${serviceType} ${crypto.randomUUID()}`, configEncrypted: await box.encryptJson(config) })
      .returning();
    return row!;
  };
  /** An unknown item with a correlation id of its own (`<batch correlation id>-<index>`, as the worker sends). */
  const unknownItems = async (tenantId: string, count: number) => {
    const { batch } = await insertBatch(handle.db, tenantId, Array(count).fill('OUTCOME_UNKNOWN'));
    for (let index = 0; index < count; index++) {
      await handle.db
        .update(credentialBatchItems)
        .set({ correlationId: `${batch.correlationId}-${index}` })
        .where(and(eq(credentialBatchItems.batchId, batch.id), eq(credentialBatchItems.index, index)));
    }
    return { batch, correlationIdOf: (index: number) => `${batch.correlationId}-${index}` };
  };
  const inspect = (tenantId: string, batchId: string, index: number, extra: string[] = []) =>
    spawnCli(['inspect-item', '--tenant', tenantId, '--batch', batchId, `--index=${index}`, ...extra], env);

  beforeAll(async () => {
    [database, vc, storage] = await Promise.all([createTestDatabase(), startVcService(), startStorage('local')]);
    handle = connectDatabase(database.url, { max: 2 });
    env = { ...postgresParts(database.url), DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_LEVEL: 'warn', FETCH_ALLOW_PRIVATE_URLS: 'true' };
    // The template's system default instances point nowhere reachable: those are the tenant's "other" instances, out of the way here.
    await handle.db.delete(serviceInstances).where(eq(serviceInstances.tenantId, SYSTEM_TENANT_ID));
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
    await vc?.stop();
    await storage?.close();
  });

  it('an item the worker signed and stored shows the signature, its status entry and the stored copy; an untouched item shows no and no', async () => {
    const tenantId = await insertTenant(handle.db);
    await addInstance(tenantId, 'VC', vcConfig(vc));
    await addInstance(tenantId, 'STORAGE', storageConfig(storage.url));
    const { batch, correlationIdOf } = await unknownItems(tenantId, 2);
    // What the worker's attempt did before it was killed, under the item's correlation id.
    const traced = { 'x-correlation-id': correlationIdOf(0) };
    const issuer = (await vc.agent('didManagerCreate', { alias: 'worker.example.com' })).body.did as string;
    const entry = (await vc.call('POST', '/agent/issueBitstringStatusList', { json: { statusPurpose: 'revocation', bitstringStatusIssuer: issuer }, headers: traced })).body;
    const credential = sampleCredential(issuer, { id: 'urn:uuid:5d1f3c2e-8a4b-4c6d-9e0f-1a2b3c4d5e6f', credentialStatus: entry });
    const signed = (await vc.call('POST', '/v2/credentials/issue', { json: { credential }, headers: traced })).body.verifiableCredential;
    const stored = await storage.call('POST', '/api/v4/public', { json: { data: signed, id: crypto.randomUUID() }, headers: traced });
    const { uri } = (await stored.json()) as { uri: string };

    const first = await inspect(tenantId, batch.id, 0);
    expect(first.code).toBe(0);
    const shown = fields(first.stdout);
    expect(shown).toMatchObject({
      itemState: ['OUTCOME_UNKNOWN'],
      itemCorrelationId: [correlationIdOf(0)],
      traceAsked: ['1 VC and 1 storage instance(s)'],
      signed: ['yes'],
      signature: [
        expect.stringMatching(
          new RegExp(`^issuer=${issuer} credentialId=${credential.id} payloadDigest=${createHash('sha256').update(JSON.stringify(credential)).digest('hex')} at=\\S+Z$`),
        ),
      ],
      statusEntries: ['1'],
      statusEntry: [expect.stringMatching(new RegExp(`^${entry.id.replace(/[.?#/]/g, '\\$&')} at=`))],
      stored: ['yes'],
      storedObject: [expect.stringMatching(new RegExp(`^${uri.replace(/[.?/]/g, '\\$&')} visibility=public exists=yes at=`))],
    });
    expect(shown).not.toHaveProperty('traceUnanswered');

    const second = fields((await inspect(tenantId, batch.id, 1)).stdout);
    expect(second).toMatchObject({ signed: ['no'], statusEntries: ['0'], stored: ['no'] });
    expect(second).not.toHaveProperty('signature');
    expect(second).not.toHaveProperty('storedObject');

    // --no-trace asks nobody.
    expect(fields((await inspect(tenantId, batch.id, 0, ['--no-trace'])).stdout)).not.toHaveProperty('signed');
  });

  it('a service that cannot answer makes the verdict unknown and says which; another tenant\'s instances are never asked', async () => {
    const tenantId = await insertTenant(handle.db, 'Down');
    const other = await insertTenant(handle.db, 'Other');
    await addInstance(tenantId, 'VC', vcConfig(vc));
    const dead = await addInstance(tenantId, 'STORAGE', storageConfig(`http://127.0.0.1:${await freePort()}`));
    await addInstance(other, 'STORAGE', storageConfig(storage.url));
    const { batch } = await unknownItems(tenantId, 1);
    const result = await inspect(tenantId, batch.id, 0);
    expect(result.code).toBe(0);
    const shown = fields(result.stdout);
    expect(shown).toMatchObject({ traceAsked: ['1 VC and 1 storage instance(s)'], signed: ['unknown'], stored: ['unknown'] });
    expect(shown.traceUnanswered).toEqual([expect.stringMatching(new RegExp(`^STORAGE instance ${dead.id}: STORAGE service unreachable`))]);
    // No internal address of the dead instance is printed beyond what its own adapter error says; the key never is.
    expect(result.stdout).not.toContain('test-storage-key');
  });

  it('an item whose outcome is known is not traced', async () => {
    const tenantId = await insertTenant(handle.db, 'Known');
    await addInstance(tenantId, 'VC', vcConfig(vc));
    const { batch } = await insertBatch(handle.db, tenantId, ['FAILED', 'OUTCOME_UNKNOWN']);
    const result = await inspect(tenantId, batch.id, 0);
    expect(result.code).toBe(0);
    expect(fields(result.stdout)).not.toHaveProperty('signed');
  });
});
