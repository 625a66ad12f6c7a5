import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePart, jwsOf, sampleCredential } from '../../vc-service/test/vc-harness.ts';
import { startVerifyRig, verifyQuery, type VerifyRig } from '../../test/rig/verify-rig.ts';

let rig: VerifyRig;
beforeAll(async () => {
  rig = await startVerifyRig();
});
afterAll(() => rig.close());

const NO_STATUS_WARNING = 'The credential has no credentialStatus: revocation and suspension were not checked';

describe('POST /credentials/verify', () => {
  it('a plain stored credential with its digestMultibase: verified, the enveloped credential and its decoded payload', async () => {
    const enveloped = await rig.issue();
    const stored = await rig.store(enveloped);
    const res = await rig.verify({ uri: stored.uri, digestMultibase: stored.digestMultibase });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      verified: true,
      credential: enveloped,
      decodedCredential: sampleCredential(rig.issuer),
      warnings: [NO_STATUS_WARNING],
    });
    expect(decodePart(jwsOf(res.body.credential), 1)).toEqual(res.body.decodedCredential);
  });

  it('an encrypted credential with its decryptionKey and digest: decrypted and verified', async () => {
    const enveloped = await rig.issue();
    const stored = await rig.store(enveloped, { encrypt: true });
    expect(stored.decryptionKey).toMatch(/^[0-9a-f]{64}$/);
    const stolen = await (await fetch(stored.uri)).json();
    expect(stolen).toMatchObject({ type: 'aes-256-gcm', cipherText: expect.any(String) });
    const res = await rig.verify({ uri: stored.uri, digestMultibase: stored.digestMultibase, decryptionKey: stored.decryptionKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verified: true, credential: enveloped, decodedCredential: sampleCredential(rig.issuer) });
    expect(res.body.error).toBeUndefined();
    const upper = await rig.verify({ uri: stored.uri, decryptionKey: stored.decryptionKey!.toUpperCase() });
    expect(upper.body.verified).toBe(true);
  });

  it('the legacy lowercase hex hash of a 3.x storage service is compared', async () => {
    const enveloped = await rig.issue();
    const stored = await rig.store(enveloped, { legacy: true });
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    const res = await rig.verify({ uri: stored.uri, hash: stored.hash });
    expect(res.status).toBe(200);
    expect(res.body.verified).toBe(true);
    const encrypted = await rig.store(enveloped, { legacy: true, encrypt: true });
    const both = await rig.verify({ uri: encrypted.uri, hash: encrypted.hash, decryptionKey: encrypted.decryptionKey });
    expect(both.body.verified).toBe(true);
  });

  it('a credential with a status entry that is not set verifies without the status warning', async () => {
    const credentialStatus = await rig.mintStatus();
    const enveloped = await rig.issue({ credentialStatus });
    const stored = await rig.store(enveloped);
    const res = await rig.verify({ uri: stored.uri, digestMultibase: stored.digestMultibase });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ verified: true, credential: enveloped, decodedCredential: sampleCredential(rig.issuer, { credentialStatus }) });
  });

  it('without a digest it still verifies, and says the content was not compared; a key for a plain credential is reported unused', async () => {
    const stored = await rig.store(await rig.issue());
    const res = await rig.verify({ uri: stored.uri, decryptionKey: 'ab'.repeat(32) });
    expect(res.status).toBe(200);
    expect(res.body.verified).toBe(true);
    expect(res.body.warnings).toEqual([
      'decryptionKey was not used: the credential is not encrypted',
      'No digestMultibase or hash was given: the content was not compared with an integrity value',
      NO_STATUS_WARNING,
    ]);
  });

  it('follows up to 3 redirects to the stored credential', async () => {
    const stored = await rig.store(await rig.issue());
    rig.source.routes.set('/r1', (_q, s) => s.writeHead(302, { location: '/r2' }).end());
    rig.source.routes.set('/r2', (_q, s) => s.writeHead(307, { location: `${rig.source.url}/r3` }).end());
    rig.source.routes.set('/r3', (_q, s) => s.writeHead(301, { location: stored.uri }).end());
    const res = await rig.verify({ uri: `${rig.source.url}/r1`, digestMultibase: stored.digestMultibase });
    expect(res.status).toBe(200);
    expect(res.body.verified).toBe(true);
  });
});

describe('GET /credentials/verify', () => {
  it('takes the same fields as query parameters: plain with digestMultibase, encrypted with key, legacy hash', async () => {
    const enveloped = await rig.issue();
    const plain = await rig.store(enveloped);
    const res = await rig.t.call('GET', verifyQuery({ uri: plain.uri, digestMultibase: plain.digestMultibase }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ verified: true, credential: enveloped, decodedCredential: sampleCredential(rig.issuer), warnings: [NO_STATUS_WARNING] });

    const encrypted = await rig.store(enveloped, { encrypt: true });
    const opened = await rig.t.call('GET', verifyQuery({ uri: encrypted.uri, digestMultibase: encrypted.digestMultibase, decryptionKey: encrypted.decryptionKey! }));
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ verified: true, credential: enveloped });

    const legacy = await rig.store(enveloped, { legacy: true });
    const hashed = await rig.t.call('GET', verifyQuery({ uri: legacy.uri, hash: legacy.hash! }));
    expect(hashed.body.verified).toBe(true);
  });
});
