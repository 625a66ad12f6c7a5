import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VcService } from '../vc-service/test/vc-harness.ts';
import { logLines, spawnCli } from '../test/rig/cli.ts';
import { insertDidRecord, useVcServiceAsSystemVc } from '../test/rig/did-fixtures.ts';
import { startTestApp, type TestApp } from '../test/rig/test-app.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

/** `css-operator rotate-did-key` against this project's VC service, through the system default VC instance. */
describe('css-operator rotate-did-key', () => {
  let t: TestApp;
  let vc: VcService;
  let token: string;
  let tenantId: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
    vc = await useVcServiceAsSystemVc(t);
    token = await t.token('tenantA');
    await t.call('GET', '/api/v1/dids', { token });
    tenantId = await t.tenantOf('tenantA');
    env = { RI_DATABASE_URL: t.databaseUrl, DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, FETCH_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'info' };
  });
  afterAll(async () => {
    await t?.close();
    await vc?.stop();
  });

  it('gives a MANAGED DID a new signing key: its document keeps the old key, its record names the new one', async () => {
    const created = await t.call('POST', '/api/v1/dids', { token, body: { type: 'MANAGED', method: 'DID_WEB', alias: 'rotating' } });
    expect(created.status).toBe(201);
    const before = created.body;
    const result = await spawnCli(['rotate-did-key', '--tenant', tenantId, '--did', before.id, '--reason', 'OPS-7 yearly rotation'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('outcome: rotated');
    const keyId = /keyId=([0-9a-f]{64})/.exec(result.stdout)?.[1];
    expect(keyId).toBeDefined();
    expect(keyId).not.toBe(before.keyId);
    expect(result.stdout).toContain(`did=${before.did} keyId=${keyId} previousKeyId=${before.keyId}`);
    expect(logLines(result.stderr)).toContainEqual(
      expect.objectContaining({ level: 'warn', audit: true, command: 'rotate-did-key', outcome: 'rotated', reason: 'OPS-7 yearly rotation', keyId }),
    );
    // The change itself, at info with the ids an operator needs.
    expect(logLines(result.stderr)).toContainEqual(
      expect.objectContaining({ level: 'info', message: 'DID key rotated', tenantId, didId: before.id, did: before.did, keyId, previousKeyId: before.keyId }),
    );

    expect((await t.call('GET', `/api/v1/dids/${before.id}`, { token })).body.keyId).toBe(keyId);
    const document = (await t.call('GET', `/api/v1/dids/${before.id}/document`, { token })).body;
    const methodIds = JSON.stringify(document);
    expect(methodIds).toContain(`${before.did}#${before.keyId}-JsonWebKey-key-0`);
    expect(methodIds).toContain(`${before.did}#${keyId}-JsonWebKey-key-1`);
    const held = await vc.agent('didManagerGet', { did: before.did });
    expect(held.body.keys.map((k: { kid: string }) => k.kid)).toEqual([before.keyId, keyId]);
  });

  it('refuses a SELF_MANAGED DID, another tenant\'s DID and a missing one (exit 3), changing nothing', async () => {
    const selfManaged = await insertDidRecord(t.db, { tenantId, did: 'did:web:self.example.com', alias: 'self.example.com' });
    const notManaged = await spawnCli(['rotate-did-key', '--tenant', tenantId, '--did', selfManaged.id, '--reason', 'r'], env);
    expect(notManaged.code).toBe(3);
    expect(notManaged.stdout).toContain('outcome: not-managed');

    const other = (await t.call('POST', '/api/v1/dids', { token: await t.token('tenantB'), body: { type: 'MANAGED', method: 'DID_WEB', alias: 'theirs' } })).body;
    const foreign = await spawnCli(['rotate-did-key', '--tenant', tenantId, '--did', other.id, '--reason', 'r'], env);
    const missing = await spawnCli(['rotate-did-key', '--tenant', tenantId, '--did', 'no-such-did', '--reason', 'r'], env);
    expect(foreign.code).toBe(3);
    expect(foreign.stdout).toBe(missing.stdout);
    expect(missing.stdout).toContain('outcome: missing');
    expect((await vc.agent('didManagerGet', { did: other.did })).body.keys).toHaveLength(1);
  });

  it('needs a reason: a missing or blank --reason is wrong usage (exit 2)', async () => {
    expect((await spawnCli(['rotate-did-key', '--tenant', tenantId, '--did', 'x'], env)).code).toBe(2);
    const blank = await spawnCli(['rotate-did-key', '--tenant', tenantId, '--did', 'x', '--reason', ' '], env);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--reason: must not be blank');
  });
});
