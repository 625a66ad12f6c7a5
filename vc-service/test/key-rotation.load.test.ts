import type { ChildProcess } from 'node:child_process';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { keyEncryptionKeyId } from '../key-vault.ts';
import { rotateProgram, runRotate } from './rotate-program.ts';
import { KEY_ENCRYPTION_KEY, sampleCredential, startVcService, type VcService } from './vc-harness.ts';

/**
 * A KEY_ENCRYPTION_KEY rotation while the VC service (its own process, holding both keys) issues: the
 * rotation is held on a row lock midway, issuances with keys on both sides of it run, it is killed there and
 * run again (held once more, with DIDs created meanwhile); no issuance fails, and afterwards a service with the
 * new key alone opens every DID's signing key.
 */
const OLD_KEK = KEY_ENCRYPTION_KEY;
const NEW_KEK = '4d'.repeat(32);
const DIDS = 60;
/** Where each run is held: after this many re-sealed keys (kid order) its next batch waits on a lock the test holds. */
const FIRST_HOLD = 20;
const SECOND_HOLD = 25;

type Issued = { did: string; status: number; credential: unknown };

describe('VC service: KEY_ENCRYPTION_KEY rotation under load', () => {
  let database: TestDatabase;
  let sql: postgres.Sql;
  /** DIDs by their key's kid order (the order the rotation goes in). */
  let dids: string[];

  beforeAll(async () => {
    database = await createEmptyDatabase();
    sql = postgres(database.url, { max: 3, onnotice: () => {} });
    const before = await startVcService({ databaseUrl: database.url });
    try {
      for (let i = 0; i < DIDS; i++) expect((await before.agent('didManagerCreate', { alias: `load-${i}.example.com` })).status).toBe(200);
    } finally {
      await before.stop();
    }
    dids = (await sql<{ did: string }[]>`select did from vc_service.keys order by kid`).map((row) => row.did);
  });
  afterAll(async () => {
    await sql?.end();
    await database?.drop();
  });

  /** Holds the row lock of the key at `index` (kid order) until `release()`: the rotation's batch of it waits there. */
  const holdKey = async (index: number) => {
    const [row] = await sql<{ kid: string }[]>`select kid from vc_service.keys order by kid offset ${index} limit 1`;
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const done = sql.begin(async (tx) => {
      await tx`select kid from vc_service.keys where kid = ${row!.kid} for update`;
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    return { release: async () => (release(), await done) };
  };

  /** Resolves once the rotation's stderr reports `count` re-sealed keys (its next batch is then the held one). */
  const reached = (child: ChildProcess, count: number) =>
    new Promise<string>((resolve, reject) => {
      let stderr = '';
      child.stderr!.on('data', (chunk) => {
        stderr += chunk;
        if (stderr.includes(`vc_service.keys: ${count} re-sealed\n`)) resolve(stderr);
      });
      child.once('exit', (code) => reject(new Error(`rotation exited (${code}) before ${count} re-sealed: ${stderr}`)));
    });

  const issue = async (vc: VcService, did: string): Promise<Issued> => {
    const answer = await vc.call('POST', '/v2/credentials/issue', { json: { credential: sampleCredential(did) } }).catch(() => undefined);
    return { did, status: answer?.status ?? 0, credential: answer?.body?.verifiableCredential };
  };
  const keysLeft = async () =>
    (await sql<{ left: number }[]>`select count(*)::int as left from vc_service.keys where sealing_key_id is distinct from ${await keyEncryptionKeyId(Buffer.from(NEW_KEK, 'hex'))}`)[0]!.left;

  it('fails no issuance while it runs, is killed midway and run again, and leaves every key opening with the new key alone', { timeout: 180_000 }, async () => {
    const env = { DATABASE_URL: database.url, KEY_ENCRYPTION_KEY: NEW_KEK, KEY_ENCRYPTION_KEY_PREVIOUS: OLD_KEK, LOG_LEVEL: 'info' };
    const during = await startVcService({ databaseUrl: database.url, env: { KEY_ENCRYPTION_KEY: NEW_KEK, KEY_ENCRYPTION_KEY_PREVIOUS: OLD_KEK } });
    const background: Issued[] = [];
    const whileHeld: Issued[] = [];
    const createdMeanwhile: string[] = [];
    let loading = true;
    // Two clients issuing with every DID in turn for as long as the rotation goes on.
    const load = [0, 1].map(async (offset) => {
      for (let i = offset; loading; i += 2) background.push(await issue(during, dids[i % DIDS]!));
    });
    try {
      // First run: held after FIRST_HOLD keys; issuances with keys it has re-sealed and keys it has not (opened
      // from the database: each DID's first use in this process), then it is killed inside its transaction.
      const firstHold = await holdKey(FIRST_HOLD);
      const first = rotateProgram(['--batch-size=1'], env);
      const firstExit = new Promise<NodeJS.Signals | null>((resolve) => first.once('exit', (_code, signal) => resolve(signal)));
      await reached(first, FIRST_HOLD);
      for (const did of [...dids.slice(0, 5), ...dids.slice(FIRST_HOLD + 5, FIRST_HOLD + 10)]) whileHeld.push(await issue(during, did));
      first.kill('SIGKILL');
      expect(await firstExit).toBe('SIGKILL');
      await firstHold.release();
      expect(await keysLeft()).toBe(DIDS - FIRST_HOLD);

      // Second run: held again further on, while DIDs are created (sealed under the new key) and used.
      const secondHold = await holdKey(FIRST_HOLD + SECOND_HOLD);
      const second = rotateProgram(['--batch-size=1'], env);
      let stdout = '';
      second.stdout!.on('data', (chunk) => (stdout += chunk));
      const secondExit = new Promise<number | null>((resolve) => second.once('exit', (code) => resolve(code)));
      const progress = reached(second, SECOND_HOLD);
      await progress;
      for (let i = 0; i < 3; i++) {
        const created = await during.agent('didManagerCreate', { alias: `meanwhile-${i}.example.com` });
        expect(created.status).toBe(200);
        createdMeanwhile.push(created.body.did);
        whileHeld.push(await issue(during, created.body.did));
      }
      for (const did of [...dids.slice(FIRST_HOLD + 10, FIRST_HOLD + 15), ...dids.slice(FIRST_HOLD + SECOND_HOLD + 5, FIRST_HOLD + SECOND_HOLD + 10)]) {
        whileHeld.push(await issue(during, did));
      }
      await secondHold.release();
      expect(await secondExit).toBe(0);
      expect(stdout).toBe(`vc_service.keys resealed=${DIDS - FIRST_HOLD} unopenable=0\n`);
    } finally {
      loading = false;
      await Promise.all(load);
      await during.stop();
    }

    // Every issuance during the rotation succeeded: none failed, whichever key sealed the DID's key at the time.
    expect(whileHeld).toHaveLength(23);
    expect(background.length).toBeGreaterThan(0);
    expect([...whileHeld, ...background].filter((issued) => issued.status !== 201).map((issued) => `${issued.did}: ${issued.status}`)).toEqual([]);
    expect(await keysLeft()).toBe(0);

    // The new key alone opens every DID's key (a fresh process: nothing cached), and what was signed meanwhile verifies.
    const after = await startVcService({ databaseUrl: database.url, env: { KEY_ENCRYPTION_KEY: NEW_KEK } });
    try {
      for (const did of [...dids, ...createdMeanwhile]) expect((await issue(after, did)).status, did).toBe(201);
      for (const { credential } of [whileHeld[0]!, whileHeld.at(-1)!, background.at(-1)!]) {
        expect((await after.agent('routeVerificationCredential', { credential, fetchRemoteContexts: true })).body).toMatchObject({ verified: true });
      }
      const audited = await runRotate(['--audit'], { DATABASE_URL: database.url, KEY_ENCRYPTION_KEY: NEW_KEK });
      expect(audited.stdout).toBe(`vc_service.keys key=${await keyEncryptionKeyId(Buffer.from(NEW_KEK, 'hex'))} role=current count=${DIDS + createdMeanwhile.length}\n`);
    } finally {
      await after.stop();
    }
  });
});
