import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { keyEncryptionKeyId } from '../key-vault.ts';
import { rotateProgram, runRotate } from './rotate-program.ts';
import { decodePart, jwsOf, KEY_ENCRYPTION_KEY, sampleCredential, startVcService, type VcService } from './vc-harness.ts';

/**
 * Rotating the VC service's KEY_ENCRYPTION_KEY (vc-service/rotate-key-encryption-key.ts) and a managed
 * DID's signing key (agent method didManagerRotateKey).
 */
const OLD_KEK = KEY_ENCRYPTION_KEY;
const NEW_KEK = '6a'.repeat(32);
const DIDS = 60;

const issue = (vc: VcService, did: string) => vc.call('POST', '/v2/credentials/issue', { json: { credential: sampleCredential(did) } });
const verify = (vc: VcService, credential: unknown) => vc.agent('routeVerificationCredential', { credential, fetchRemoteContexts: true });

describe('VC service: KEY_ENCRYPTION_KEY rotation', () => {
  let database: TestDatabase;
  let sql: postgres.Sql;
  let dids: string[];
  let signedBefore: unknown;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    sql = postgres(database.url, { max: 1, onnotice: () => {} });
    const vc = await startVcService({ databaseUrl: database.url });
    try {
      dids = [];
      for (let i = 0; i < DIDS; i++) dids.push((await vc.agent('didManagerCreate', { alias: `kek-${i}.example.com` })).body.did);
      signedBefore = (await issue(vc, dids[0]!)).body.verifiableCredential;
    } finally {
      await vc.stop();
    }
    // Two keys as written before sealing key ids were stored.
    await sql`update vc_service.keys set sealing_key_id = null where did = any(${dids.slice(0, 2)})`;
  });
  afterAll(async () => {
    await sql?.end();
    await database?.drop();
  });

  it('killed midway and run again while the service runs with both keys, every private key opens with the new key alone', async () => {
    const env = { DATABASE_URL: database.url, KEY_ENCRYPTION_KEY: NEW_KEK, KEY_ENCRYPTION_KEY_PREVIOUS: OLD_KEK, LOG_LEVEL: 'info' };
    const during = await startVcService({ databaseUrl: database.url, env: { KEY_ENCRYPTION_KEY: NEW_KEK, KEY_ENCRYPTION_KEY_PREVIOUS: OLD_KEK } });
    try {
      const audited = await runRotate(['--audit'], env);
      expect(audited.code).toBe(0);
      expect(audited.stdout).toContain(`vc_service.keys key=${await keyEncryptionKeyId(Buffer.from(OLD_KEK, 'hex'))} role=previous count=${DIDS - 2}`);
      expect(audited.stdout).toContain('vc_service.keys key=legacy role=legacy count=2');

      const child = rotateProgram(['--batch-size=1'], env);
      let stderr = '';
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
          if (stderr.includes('vc_service.keys: 5 re-sealed')) child.kill('SIGKILL');
        });
        child.once('exit', (_code, killedBy) => resolve(killedBy));
      });
      expect(signal).toBe('SIGKILL');
      const [midway] = await sql<{ left: number }[]>`select count(*)::int as left from vc_service.keys where sealing_key_id is distinct from ${await keyEncryptionKeyId(Buffer.from(NEW_KEK, 'hex'))}`;
      expect(midway!.left).toBeGreaterThan(0);
      expect(midway!.left).toBeLessThan(DIDS);
      // The service holding both keys signs with every DID meanwhile.
      for (const did of [dids[0]!, dids[1]!, dids.at(-1)!]) expect((await issue(during, did)).status).toBe(201);

      const again = await runRotate(['--batch-size=7'], env);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/vc_service\.keys resealed=\d+ unopenable=0/);
      const audits = again.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
      expect(audits.map((line) => [line.level, line.phase, line['service.name']])).toEqual([
        ['warn', 'started', 'credential-support-vc-service'],
        ['warn', 'finished', 'credential-support-vc-service'],
      ]);
      expect(again.stdout + again.stderr).not.toContain(NEW_KEK);
      expect(again.stdout + again.stderr).not.toContain(OLD_KEK);
    } finally {
      await during.stop();
    }

    const after = await startVcService({ databaseUrl: database.url, env: { KEY_ENCRYPTION_KEY: NEW_KEK } });
    try {
      for (const did of dids) expect((await issue(after, did)).status, did).toBe(201);
      expect((await verify(after, signedBefore)).body).toMatchObject({ verified: true });
      const audited = await runRotate(['--audit'], { DATABASE_URL: database.url, KEY_ENCRYPTION_KEY: NEW_KEK });
      expect(audited.stdout.trim()).toBe(`vc_service.keys key=${await keyEncryptionKeyId(Buffer.from(NEW_KEK, 'hex'))} role=current count=${DIDS}`);
    } finally {
      await after.stop();
    }
  });

  it('refuses a malformed --batch-size (exit 2) and a previous key equal to the current one (exit 1)', async () => {
    const bad = await runRotate(['--batch-size=0'], { DATABASE_URL: database.url, KEY_ENCRYPTION_KEY: NEW_KEK });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--batch-size: must be an integer from 1');
    const same = await runRotate([], { DATABASE_URL: database.url, KEY_ENCRYPTION_KEY: NEW_KEK, KEY_ENCRYPTION_KEY_PREVIOUS: NEW_KEK });
    expect(same.code).toBe(1);
    expect(same.stderr).toContain('KEY_ENCRYPTION_KEY_PREVIOUS must be 64 hex characters and differ from KEY_ENCRYPTION_KEY');
  });
});

describe('VC service: a managed DID key rotation', () => {
  let vc: VcService;
  beforeAll(async () => {
    vc = await startVcService();
  });
  afterAll(() => vc?.stop());

  it('adds a new key to the document and signs with it; what the old key signed still verifies', async () => {
    const created = (await vc.agent('didManagerCreate', { alias: 'rotating.example.com' })).body;
    const oldSigned = (await issue(vc, created.did)).body.verifiableCredential;
    expect(decodePart(jwsOf(oldSigned), 0).kid).toBe(`${created.did}#${created.controllerKeyId}-JsonWebKey-key-0`);

    const rotated = await vc.agent('didManagerRotateKey', { did: created.did });
    expect(rotated.status).toBe(200);
    expect(rotated.body.keys.map((k: { kid: string }) => k.kid)).toHaveLength(2);
    expect(rotated.body.keys[0].kid).toBe(created.controllerKeyId);
    const newKey = rotated.body.keys[1].publicKeyHex as string;
    expect(newKey).not.toBe(created.controllerKeyId);

    const newSigned = (await issue(vc, created.did)).body.verifiableCredential;
    expect(decodePart(jwsOf(newSigned), 0).kid).toBe(`${created.did}#${newKey}-JsonWebKey-key-1`);
    expect((await verify(vc, newSigned)).body).toMatchObject({ verified: true });
    expect((await verify(vc, oldSigned)).body).toMatchObject({ verified: true });

    const resolved = (await vc.agent('resolveDid', { didUrl: created.did })).body.didDocument;
    const methodIds = resolved.verificationMethod.map((m: { id: string }) => m.id);
    expect(methodIds).toHaveLength(6);
    expect(methodIds).toContain(`${created.did}#${created.controllerKeyId}-JsonWebKey-key-0`);
    expect(methodIds).toContain(`${created.did}#${newKey}-JsonWebKey-key-1`);
  });

  it('answers 404 for a DID it does not hold and 400 without a did; needs the API key', async () => {
    expect(await vc.agent('didManagerRotateKey', { did: 'did:web:stranger.example.com' })).toEqual({ status: 404, body: { error: 'not_found: Identifier not found' } });
    expect((await vc.agent('didManagerRotateKey', {})).status).toBe(400);
    const anonymous = await vc.call('POST', '/agent/didManagerRotateKey', { json: { did: 'did:web:x.example.com' }, key: null });
    expect(anonymous.status).toBe(401);
  });
});
