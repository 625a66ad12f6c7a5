import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../crypto/secret-box.ts';
import { readSystemServices, SYSTEM_SERVICE_IDS } from '../settings/system-services.ts';
import { createEmptyDatabase } from '../../test/rig/databases.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { runProgram } from '../../test/rig/program.ts';
import { TEST_ENCRYPTION_KEY } from '../../test/rig/test-settings.ts';
import { connectDatabase, type DatabaseHandle } from '../../db/client.ts';
import { prepareDatabase } from './prepare-database.ts';
import { serviceInstances, tenants } from '../../db/schema/index.ts';
import { SYSTEM_TENANT_ID } from '../../db/system-tenant.ts';

const OTHER_KEY = 'f'.repeat(64);

describe('prepareDatabase (migrations, key check, system defaults)', () => {
  let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createEmptyDatabase();
    handle = connectDatabase(database.url, { max: 2 });
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  const prepare = (env: Record<string, string> = {}, key = TEST_ENCRYPTION_KEY) =>
    prepareDatabase({ databaseUrl: database.url, dataEncryptionKey: key, systemServices: readSystemServices(env) });

  it('migrates an empty database and seeds the system tenant and three system services, encrypted', async () => {
    await prepare({ SYSTEM_VC_API_KEY: 'vc-secret-1' });
    const [system] = await handle.db.select().from(tenants).where(eq(tenants.id, SYSTEM_TENANT_ID));
    expect(system).toBeDefined();
    const rows = await handle.db.select().from(serviceInstances);
    expect(rows.map((r) => r.id).sort()).toEqual(Object.values(SYSTEM_SERVICE_IDS).sort());
    expect(rows.every((r) => r.tenantId === SYSTEM_TENANT_ID && r.isPrimary)).toBe(true);
    const vc = rows.find((r) => r.serviceType === 'VC')!;
    expect(vc).toMatchObject({ adapterType: 'VC_ADAPTER', name: 'System Default VC' });
    expect(vc.configEncrypted).not.toContain('vc-secret-1');
    const config = await new SecretBox(TEST_ENCRYPTION_KEY).decryptJson<Record<string, string>>(vc.configEncrypted);
    expect(config).toEqual({ baseUrl: 'http://localhost:3332', apiKey: 'vc-secret-1', apiVersion: '1.0.0' });
  });

  it('is idempotent and re-encrypts system configs from the current settings', async () => {
    await prepare({ SYSTEM_VC_API_KEY: 'vc-secret-2', SYSTEM_IDR_BASE_URL: 'https://idr.example.com' });
    const rows = await handle.db.select().from(serviceInstances);
    expect(rows).toHaveLength(3);
    const box = new SecretBox(TEST_ENCRYPTION_KEY);
    const vc = await box.decryptJson<{ apiKey: string }>(rows.find((r) => r.serviceType === 'VC')!.configEncrypted);
    expect(vc.apiKey).toBe('vc-secret-2');
    const idr = await box.decryptJson<Record<string, unknown>>(rows.find((r) => r.serviceType === 'IDR')!.configEncrypted);
    expect(idr).toMatchObject({ baseUrl: 'https://idr.example.com', apiVersion: '4.0', defaultFwqs: false });
    expect((await handle.db.select().from(tenants)).filter((t) => t.id === SYSTEM_TENANT_ID)).toHaveLength(1);
  });

  it('fails when DATA_ENCRYPTION_KEY cannot decrypt existing data, and changes nothing', async () => {
    const before = await handle.db.select().from(serviceInstances);
    await expect(prepare({}, OTHER_KEY)).rejects.toMatchObject({
      message: 'DATA_ENCRYPTION_KEY cannot decrypt existing data',
      code: 'ENCRYPTION_KEY_MISMATCH',
    });
    const after = await handle.db.select().from(serviceInstances);
    expect(after.map((r) => r.configEncrypted)).toEqual(before.map((r) => r.configEncrypted));
  });
});

/** Runs the real web entry as a process and collects what it prints. */
const runWeb = (env: Record<string, string>) => runProgram('functions/server.ts', env);

const baseEnv = {
  RI_APP_URL: 'http://127.0.0.1:3003',
  AUTH_OIDC_ISSUER: 'http://127.0.0.1:9',
  RI_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
};

describe('web boot refuses bad DATA_ENCRYPTION_KEY with one line', () => {
  it.each([
    [{}, 'DATA_ENCRYPTION_KEY is required (64 hexadecimal characters) [ENCRYPTION_KEY_MISSING]'],
    [{ DATA_ENCRYPTION_KEY: 'abc123' }, 'DATA_ENCRYPTION_KEY must be exactly 64 hexadecimal characters [ENCRYPTION_KEY_MALFORMED]'],
    [{ DATA_ENCRYPTION_KEY: 'z'.repeat(64) }, 'must be exactly 64 hexadecimal characters [ENCRYPTION_KEY_MALFORMED]'],
    [
      { DATA_ENCRYPTION_KEY: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', DEPLOYMENT_ENVIRONMENT: 'production' },
      'DATA_ENCRYPTION_KEY is the development placeholder, refused when DEPLOYMENT_ENVIRONMENT is "production" [ENCRYPTION_KEY_PLACEHOLDER]',
    ],
  ])('%j', async (env, message) => {
    const run = runWeb({ ...baseEnv, ...env });
    expect(await run.exited).toBe(1);
    const lines = run.output().stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Web boot failed: ');
    expect(lines[0]).toContain(message);
  });

  it('names a setting with an invalid value', async () => {
    const run = runWeb({ ...baseEnv, DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, TENANT_MODE: 'half-open' });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain('TENANT_MODE must be one of open, closed');
  });

  it('refuses an invalid LOG_REDACT_PATHS, as the worker does', async () => {
    const run = runWeb({ ...baseEnv, DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, LOG_REDACT_PATHS: 'headers.*.' });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr.trim()).toBe(
      'Web boot failed: LOG_REDACT_PATHS: "headers.*." is not a path of field names or * separated by dots [CONFIG_INVALID]',
    );
  });
});

describe('web boot end to end', () => {
  it('migrates an empty database at start-up, serves /api/health, and stops on SIGTERM', async () => {
    const database = await createEmptyDatabase();
    const port = await freePort();
    const run = runWeb({
      ...baseEnv,
      RI_DATABASE_URL: database.url,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    try {
      let health: Response | undefined;
      for (let i = 0; i < 300 && !health; i++) {
        health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
        if (!health) await new Promise((r) => setTimeout(r, 100));
      }
      expect(health?.status).toBe(200);
      // The default system services live on localhost, which the guarded fetcher refuses: one warning says so.
      const warnings = run
        .output()
        .stdout.split('\n')
        .filter((line) => line.includes('FETCH_ALLOW_PRIVATE_URLS'))
        .map((line) => JSON.parse(line) as { level: string; message: string });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.level).toBe('warn');
      expect(warnings[0]!.message).toContain('System Default Storage (STORAGE, http://localhost:3334)');
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
      await database.drop();
    }
  });
});

describe('a key that cannot decrypt existing data fails boot of both roles', () => {
  it.each([
    ['functions/server.ts', 'Web boot failed', {}],
    ['functions/server.ts', 'Web boot failed', { SKIP_MIGRATIONS: 'true' }],
    ['consumers/worker.ts', 'Worker boot failed', {}],
    ['consumers/worker.ts', 'Worker boot failed', { SKIP_MIGRATIONS: 'true' }],
  ])('%s %j', async (script, prefix, extra) => {
    const database = await createEmptyDatabase();
    try {
      await prepareDatabase({
        databaseUrl: database.url,
        dataEncryptionKey: TEST_ENCRYPTION_KEY,
        systemServices: readSystemServices({}),
      });
      const run = runProgram(script, {
        ...baseEnv,
        RI_DATABASE_URL: database.url,
        DATA_ENCRYPTION_KEY: OTHER_KEY,
        PORT: String(await freePort()),
        ...extra,
      });
      const code = await run.exited;
      const stderr = run.output().stderr;
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(`${prefix}: DATA_ENCRYPTION_KEY cannot decrypt existing data [ENCRYPTION_KEY_MISMATCH]`);
    } finally {
      await database.drop();
    }
  });
});
