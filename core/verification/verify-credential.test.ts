import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainDeps } from '../deps.ts';
import { pointVcInstance, unreachableVc } from '../../test/rig/did-fixtures.ts';
import { SYSTEM_SERVICE_IDS } from '../../test/rig/fixtures.ts';
import { startVerifyRig, type VerifyRig } from '../../test/rig/verify-rig.ts';
import { verifyCredential } from './verify-credential.ts';

/** The pipeline as the library worker calls it (no HTTP): the report's checks are what it maps onto its seven. */
let rig: VerifyRig;
beforeAll(async () => {
  rig = await startVerifyRig();
});
afterAll(() => rig.close());

const run = (input: Parameters<typeof verifyCredential>[1]) => verifyCredential(domainDeps(rig.t.services), input);

describe('verifyCredential checks', () => {
  it('every check passes for an encrypted credential with a status entry, key and digest', async () => {
    const credentialStatus = await rig.mintStatus();
    const stored = await rig.store(await rig.issue({ credentialStatus }), { encrypt: true });
    const report = await run({ uri: stored.uri, digestMultibase: stored.digestMultibase, decryptionKey: stored.decryptionKey });
    expect(report).toMatchObject({
      completed: true,
      checks: { retrieval: 'pass', decryption: 'pass', digest: 'pass', envelope: 'pass', proof: 'pass', status: 'pass', temporal: 'pass' },
      verdict: { verified: true, warnings: [] },
    });
  });

  it('what was not asked for or not present is not_run: no encryption, no digest, no status entry', async () => {
    const stored = await rig.store(await rig.issue());
    const report = await run({ uri: stored.uri });
    expect(report.checks).toEqual({ retrieval: 'pass', decryption: 'not_run', digest: 'not_run', envelope: 'pass', proof: 'pass', status: 'not_run', temporal: 'pass' });
  });

  it('a revoked and expired credential: status and temporal fail, proof passes, the error is the status one', async () => {
    const credentialStatus = await rig.mintStatus();
    const stored = await rig.store(await rig.issue({ credentialStatus, validUntil: '2021-01-01T00:00:00Z' }));
    await rig.setStatus(credentialStatus, true);
    const report = await run({ uri: stored.uri });
    expect(report).toMatchObject({
      completed: true,
      checks: { proof: 'pass', status: 'fail', temporal: 'fail' },
      verdict: { verified: false, error: { type: 'status' } },
    });
  });

  it('a source that re-serialises the stored credential still matches its digest and hash; other content matches neither', async () => {
    const credential = await rig.issue();
    const stored = { ...(await rig.store(credential)), hash: (await rig.store(credential, { legacy: true })).hash };
    expect(stored.digestMultibase).toMatch(/^z/);
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    const pretty = rig.source.serve('/pretty', JSON.stringify(credential, null, 2));
    const both = await run({ uri: pretty, digestMultibase: stored.digestMultibase, hash: stored.hash });
    expect(both.checks).toMatchObject({ retrieval: 'pass', digest: 'pass', proof: 'pass' });
    const changed = rig.source.serve('/changed', JSON.stringify({ ...credential, extra: 1 }, null, 2));
    expect(await run({ uri: changed, hash: stored.hash })).toMatchObject({ completed: false, checks: { digest: 'fail' }, failure: { code: 'DIGEST_MISMATCH' } });
  });

  it('the validity window is judged at `now` when given', async () => {
    const stored = await rig.store(await rig.issue({ validUntil: '2030-01-01T00:00:00Z' }));
    expect((await run({ uri: stored.uri, now: new Date('2029-12-31T00:00:00Z') })).checks.temporal).toBe('pass');
    expect((await run({ uri: stored.uri, now: new Date('2030-01-02T00:00:00Z') })).checks.temporal).toBe('fail');
  });

  it('a stop names its failure and the check it stopped at; later checks are not_run', async () => {
    const stored = await rig.store(await rig.issue(), { encrypt: true });
    expect(await run({ uri: stored.uri })).toEqual({
      completed: false,
      checks: { retrieval: 'pass', decryption: 'fail', digest: 'not_run', envelope: 'not_run', proof: 'not_run', status: 'not_run', temporal: 'not_run' },
      failure: { code: 'DECRYPTION_REQUIRED', message: 'The credential is encrypted: a decryptionKey is required' },
    });
    const other = await rig.store({ other: true });
    const mismatch = await run({ uri: stored.uri, decryptionKey: stored.decryptionKey, digestMultibase: other.digestMultibase });
    expect(mismatch).toMatchObject({ completed: false, checks: { decryption: 'pass', digest: 'fail', envelope: 'not_run' }, failure: { code: 'DIGEST_MISMATCH' } });
    expect(await run({ uri: `${rig.source.url}/missing` })).toMatchObject({ completed: false, checks: { retrieval: 'fail' }, failure: { code: 'UPSTREAM_ERROR' } });
  });

  it('the VC service down leaves the proof unjudged (not_run), so a retry can tell it from a bad signature', async () => {
    const stored = await rig.store(await rig.issue());
    await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, await unreachableVc());
    try {
      expect(await run({ uri: stored.uri })).toMatchObject({
        completed: false,
        checks: { retrieval: 'pass', envelope: 'pass', proof: 'not_run' },
        failure: { code: 'VC_SERVICE_ERROR' },
      });
    } finally {
      await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, rig.vc);
    }
  });
});
