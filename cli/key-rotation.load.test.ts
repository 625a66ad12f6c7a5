import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../core/crypto/secret-box.ts';
import { SEALED_COLUMNS } from '../core/key-rotation/sealed-columns.ts';
import { startTestApp, type TestApp } from '../test/rig/test-app.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

/**
 * A rotation of DATA_ENCRYPTION_KEY while the web process, holding both keys, serves writes and reads of
 * sealed values: no request fails, and afterwards every value opens with the new key alone.
 */
const OLD_KEY = TEST_ENCRYPTION_KEY;
const NEW_KEY = '3c'.repeat(32);

const storageBody = (i: number) => ({
  serviceType: 'STORAGE',
  adapterType: 'STORAGE_ADAPTER',
  name: `Storage ${i}`,
  config: { baseUrl: 'https://storage.example.com', apiKey: `secret-key-${i}`, publicBucket: 'pub', privateBucket: 'priv' },
});

describe('DATA_ENCRYPTION_KEY rotation under load', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    // The template database was sealed under the test key: the app starts on the new key with the old one as previous.
    t = await startTestApp({ env: { DATA_ENCRYPTION_KEY: NEW_KEY, DATA_ENCRYPTION_KEY_PREVIOUS: OLD_KEY } });
    token = await t.token('tenantA');
  });
  afterAll(() => t?.close());

  it('serves every request while the rotation runs, and leaves nothing under the old key', async () => {
    const oldBox = new SecretBox(OLD_KEY);
    const existing: string[] = [];
    for (let i = 0; i < 20; i++) existing.push((await t.call('POST', '/api/v1/services', { token, body: storageBody(i) })).body.id);
    // Seal the existing instances' configs under the old key, as before the rotation began.
    await t.db.execute(sql`update service_instances set config_encrypted = ${await oldBox.encryptJson(storageBody(0).config)} where id = any(${`{${existing.join(',')}}`}::text[])`);

    const rotation = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'rotate-encryption-key', '--batch-size=1'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', RI_DATABASE_URL: t.databaseUrl, DATA_ENCRYPTION_KEY: NEW_KEY, DATA_ENCRYPTION_KEY_PREVIOUS: OLD_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    rotation.stdout.on('data', (d) => (stdout += d));
    const finished = new Promise<number | null>((resolve) => rotation.once('exit', (code) => resolve(code)));
    let running = true;
    void finished.then(() => (running = false));

    const statuses: number[] = [];
    let round = 0;
    // Requests that seal and open while the rotation runs (at least one full round, whatever the timing).
    do {
      const id = existing[round % existing.length]!;
      statuses.push((await t.call('PATCH', `/api/v1/services/${id}`, { token, body: { config: { apiKey: `rotated-${round}` } } })).status);
      statuses.push((await t.call('GET', `/api/v1/services/${id}`, { token })).status);
      statuses.push((await t.call('POST', '/api/v1/services', { token, body: storageBody(100 + round) })).status);
      round += 1;
    } while (running || round < 3);
    expect(await finished).toBe(0);
    expect(statuses.filter((status) => status >= 300)).toEqual([]);
    expect(stdout).toMatch(/service_instances\.config_encrypted resealed=\d+ changedMeanwhile=\d+ unopenable=0/);

    const newOnly = new SecretBox(NEW_KEY);
    for (const sealed of SEALED_COLUMNS) {
      const rows = await t.db.execute<{ value: string }>(
        sql`select ${sealed.column} as value from ${sealed.table} where ${sealed.column} is not null${sealed.only ? sql` and ${sealed.only}` : sql``}`,
      );
      for (const row of rows) await expect(newOnly.decrypt(row.value)).resolves.toEqual(expect.any(String));
    }
    for (const id of existing) expect((await t.call('GET', `/api/v1/services/${id}`, { token })).status).toBe(200);
  });
});
