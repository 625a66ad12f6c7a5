import { spawn } from 'node:child_process';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox, dataKeyId } from '../core/crypto/secret-box.ts';
import { SEALED_COLUMNS, sealedColumnName } from '../core/key-rotation/sealed-columns.ts';
import { assertEncryptionKeyMatches } from '../core/start-up/system-defaults.ts';
import { connectDatabase, type Database, type DatabaseHandle } from '../db/client.ts';
import { createId } from '../db/ids.ts';
import { credentialBatches, credentialBatchItems } from '../db/schema/credential-batches.ts';
import { credentials, IDEMPOTENT_OPERATIONS, idempotencyKeys } from '../db/schema/credentials.ts';
import { insertCredential, insertTenant } from '../test/rig/batch-recovery-fixtures.ts';
import { logLines, spawnCli } from '../test/rig/cli.ts';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

/**
 * Rotating DATA_ENCRYPTION_KEY with `css-operator rotate-encryption-key`, audited by `audit-encryption`:
 * every sealed value opens afterwards with the new key alone, to what it held before, also after the
 * rotation was killed midway and run again. The old key is the test key the template database was sealed with.
 */
const OLD_KEY = TEST_ENCRYPTION_KEY;
const NEW_KEY = '7e'.repeat(32);
const oldBox = new SecretBox(OLD_KEY);
const newBoxOnly = new SecretBox(NEW_KEY);
/** A value in the format written before key ids: the v2 value without its key id. */
const legacyOf = (sealed: string) => `v1.${sealed.split('.').slice(2).join('.')}`;

/** Every sealed value of the database, by `table.column id`, opened with `box` (undefined when it does not open). */
const openEverything = async (db: Database, box: SecretBox): Promise<Map<string, string | undefined>> => {
  const opened = new Map<string, string | undefined>();
  for (const sealed of SEALED_COLUMNS) {
    const rows = await db.execute<{ id: string; value: string }>(
      sql`select ${sealed.id} as id, ${sealed.column} as value from ${sealed.table} where ${sealed.column} is not null${sealed.only ? sql` and ${sealed.only}` : sql``}`,
    );
    for (const row of rows) opened.set(`${sealedColumnName(sealed)} ${row.id}`, await box.decrypt(row.value).catch(() => undefined));
  }
  return opened;
};

/** A tenant with credentials (one legacy value), an idempotency answer and a batch of `items` items, all sealed under the old key. */
const seedSealedValues = async (db: Database, items: number) => {
  const tenantId = await insertTenant(db);
  for (let i = 0; i < 3; i++) {
    const id = await insertCredential(db, tenantId);
    const sealed = await oldBox.encrypt(`storage-key-${i}`);
    await db.update(credentials).set({ encrypted: true, wrappedDecryptionKey: i === 0 ? legacyOf(sealed) : sealed }).where(eq(credentials.id, id));
  }
  await db.insert(idempotencyKeys).values({
    tenantId,
    operation: IDEMPOTENT_OPERATIONS[0],
    key: 'idem-1',
    bodyDigest: 'sha256-x',
    sealedResponse: await oldBox.encryptJson({ answer: 'sealed response' }),
    finalisedAt: new Date(),
  });
  const batchId = createId();
  await db.insert(credentialBatches).values({
    id: batchId,
    tenantId,
    correlationId: `c-${batchId}`,
    state: 'RUNNING',
    itemCount: items,
    queuedCount: items,
    idempotencyKey: `k-${batchId}`,
    bodyDigest: `d-${batchId}`,
  });
  const rows = await Promise.all(
    Array.from({ length: items }, async (_, index) => ({
      batchId,
      tenantId,
      index,
      sealedRequest: await oldBox.encryptJson({ credentialPayload: { name: `secret product ${index}` } }),
      correlationId: `item-${index}`,
    })),
  );
  for (let start = 0; start < rows.length; start += 500) await db.insert(credentialBatchItems).values(rows.slice(start, start + 500));
};

describe('css-operator rotate-encryption-key and audit-encryption', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let before: Map<string, string | undefined>;
  const rotating = () => ({ RI_DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: NEW_KEY, DATA_ENCRYPTION_KEY_PREVIOUS: OLD_KEY, LOG_LEVEL: 'info' });

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = connectDatabase(database.url, { max: 2 });
    await seedSealedValues(handle.db, 1200);
    before = await openEverything(handle.db, oldBox);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('the seeded database holds values of every kind under the old key, all opening with it', () => {
    expect([...before.values()].every((value) => value !== undefined)).toBe(true);
    const columns = new Set([...before.keys()].map((key) => key.split(' ')[0]));
    for (const name of ['system_meta.value', 'service_instances.config_encrypted', 'credentials.wrapped_decryption_key', 'idempotency_keys.sealed_response', 'credential_batch_items.sealed_request']) {
      expect(columns).toContain(name);
    }
  });

  it('audit-encryption counts values per column and key, naming keys by id and printing no secret', async () => {
    const result = await spawnCli(['audit-encryption'], rotating());
    expect(result.code).toBe(0);
    const oldId = await dataKeyId(OLD_KEY);
    expect(result.stdout).toContain(`credential_batch_items.sealed_request key=${oldId} role=previous count=1200`);
    expect(result.stdout).toContain(`credentials.wrapped_decryption_key key=legacy role=legacy count=1`);
    expect(result.stdout).toContain(`credentials.wrapped_decryption_key key=${oldId} role=previous count=2`);
    expect(result.stdout).toContain(`system_meta.value key=${oldId} role=previous count=1`);
    expect(result.stdout).toMatch(/not under current key: \d+/);
    for (const secret of [OLD_KEY, NEW_KEY, 'storage-key-1', 'secret product', 'sealed response']) {
      expect(result.stdout + result.stderr).not.toContain(secret);
    }
    expect(logLines(result.stderr)).toContainEqual(expect.objectContaining({ level: 'warn', audit: true, command: 'audit-encryption' }));
  });

  it('killed midway and run again, the rotation leaves every value opening with the new key alone, to what it held', async () => {
    // Batches of 5 over 1,200 items: the kill lands after the first 50 items are re-sealed, far from the end.
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'rotate-encryption-key', '--batch-size=5'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...rotating() },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const killed = new Promise<NodeJS.Signals | null>((resolve) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        if (/credential_batch_items\.sealed_request: 50 re-sealed/.test(stderr)) child.kill('SIGKILL');
      });
      child.once('exit', (_code, signal) => resolve(signal));
    });
    expect(await killed).toBe('SIGKILL');

    const midway = await openEverything(handle.db, newBoxOnly);
    const notYet = [...midway.values()].filter((value) => value === undefined).length;
    expect(notYet).toBeGreaterThan(0);
    expect(notYet).toBeLessThan(1200);
    // Meanwhile a process holding both keys opens everything, and the boot check passes.
    expect(await openEverything(handle.db, new SecretBox(NEW_KEY, OLD_KEY))).toEqual(before);

    const again = await spawnCli(['rotate-encryption-key', '--batch-size=50'], rotating());
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/credential_batch_items\.sealed_request resealed=\d+ changedMeanwhile=0 unopenable=0/);
    expect(again.stderr).toMatch(/credential_batch_items\.sealed_request: \d+ re-sealed/);
    const audits = logLines(again.stderr).filter((line) => line.command === 'rotate-encryption-key');
    expect(audits.map((line) => [line.level, line.phase])).toEqual([
      ['warn', 'started'],
      ['warn', 'finished'],
    ]);
    expect(audits[1]).toMatchObject({ fromKeyId: await dataKeyId(OLD_KEY), toKeyId: await dataKeyId(NEW_KEY), unopenable: 0 });
    expect(again.stderr).not.toContain(OLD_KEY);
    expect(again.stderr).not.toContain(NEW_KEY);

    expect(await openEverything(handle.db, newBoxOnly)).toEqual(before);
    await expect(assertEncryptionKeyMatches(handle.db, newBoxOnly)).resolves.toBeUndefined();
    const audit = await spawnCli(['audit-encryption'], { ...rotating(), DATA_ENCRYPTION_KEY_PREVIOUS: '' });
    expect(audit.stdout).toContain('not under current key: 0');
    expect(audit.stdout).not.toMatch(/role=(previous|legacy|unknown)/);

    // Nothing left to do: a third run re-seals nothing.
    const third = await spawnCli(['rotate-encryption-key'], rotating());
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('credential_batch_items.sealed_request resealed=0 changedMeanwhile=0 unopenable=0');
  });
});

describe('css-operator rotate-encryption-key: what it refuses and leaves', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
    handle = connectDatabase(database.url, { max: 2 });
    await seedSealedValues(handle.db, 3);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('a malformed --batch-size is wrong usage (exit 2) and re-seals nothing', async () => {
    const env = { RI_DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: NEW_KEY, DATA_ENCRYPTION_KEY_PREVIOUS: OLD_KEY };
    const result = await spawnCli(['rotate-encryption-key', '--batch-size=0'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--batch-size: must be an integer from 1');
    expect([...(await openEverything(handle.db, newBoxOnly)).values()].every((value) => value === undefined)).toBe(true);
  });

  it('a value neither key opens is left as it was and reported (exit 1); every other value is re-sealed', async () => {
    const [damaged] = await handle.db.select({ id: credentialBatchItems.id }).from(credentialBatchItems).limit(1);
    const foreign = await new SecretBox('99'.repeat(32)).encrypt('under a lost key');
    await handle.db.update(credentialBatchItems).set({ sealedRequest: foreign }).where(eq(credentialBatchItems.id, damaged!.id));
    const result = await spawnCli(['rotate-encryption-key'], {
      RI_DATABASE_URL: database.url,
      DATA_ENCRYPTION_KEY: NEW_KEY,
      DATA_ENCRYPTION_KEY_PREVIOUS: OLD_KEY,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('credential_batch_items.sealed_request resealed=2 changedMeanwhile=0 unopenable=1');
    expect(result.stderr).toContain('1 value(s) opened with neither key and were left as they were');
    const [left] = await handle.db.select({ value: credentialBatchItems.sealedRequest }).from(credentialBatchItems).where(eq(credentialBatchItems.id, damaged!.id));
    expect(left!.value).toBe(foreign);
    const opened = await openEverything(handle.db, newBoxOnly);
    expect([...opened.values()].filter((value) => value === undefined)).toHaveLength(1);
    const audit = await spawnCli(['audit-encryption'], { RI_DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: NEW_KEY });
    expect(audit.stdout).toContain(`credential_batch_items.sealed_request key=${await dataKeyId('99'.repeat(32))} role=unknown count=1`);
    expect(audit.stdout).toContain('not under current key: 1');
  });
});
