import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startForeignIssuer, type ForeignIssuer } from '../../test/rig/foreign-issuer.ts';
import { startVerifyRig, type VerifyRig } from '../../test/rig/verify-rig.ts';

/**
 * The public verify route with credentials our code did not sign: an independent issuer with its
 * own keys, did:web document and status lists (test/rig/foreign-issuer.ts), and our VC service.
 */
let rig: VerifyRig;
let issuer: ForeignIssuer;
beforeAll(async () => {
  issuer = await startForeignIssuer();
  rig = await startVerifyRig({}, issuer.vcEnv);
});
afterAll(async () => {
  await rig?.close();
  await issuer?.close();
});
beforeEach(() => {
  issuer.lists.mode = 'jws';
});

const verifyStored = async (enveloped: Record<string, unknown>) => {
  const stored = await rig.store(enveloped);
  const res = await rig.verify({ uri: stored.uri, digestMultibase: stored.digestMultibase });
  expect(res.status).toBe(200);
  return res.body;
};

describe('POST /credentials/verify: a credential of another issuer', () => {
  it('verifies, with its status read from their own list', async () => {
    const credential = issuer.credential({ credentialStatus: issuer.statusEntry('revocation') });
    const enveloped = await issuer.envelope(credential, 'multikey-p256');
    expect(await verifyStored(enveloped)).toEqual({ verified: true, credential: enveloped, decodedCredential: credential });
  });

  it.each([
    ['revoked', 'revocation', 'The credential was revoked by the issuer'],
    ['suspended', 'suspension', 'The credential is suspended by the issuer'],
  ] as const)('%s on their list → status', async (_name, purpose, message) => {
    const entry = issuer.statusEntry(purpose);
    const enveloped = await issuer.envelope(issuer.credential({ credentialStatus: entry }));
    issuer.setStatus(entry, true);
    expect(await verifyStored(enveloped)).toMatchObject({ verified: false, error: { type: 'status', message } });
  });

  it('expired → temporal', async () => {
    const enveloped = await issuer.envelope(issuer.credential({ validFrom: '2020-01-01T00:00:00Z', validUntil: '2021-01-01T00:00:00Z' }), 'jwk2020-p256');
    expect(await verifyStored(enveloped)).toMatchObject({ verified: false, error: { type: 'temporal', message: expect.stringMatching(/expired at 2021/) } });
  });

  it('re-signed with another key → integrity', async () => {
    const stranger = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const enveloped = await issuer.envelope(issuer.credential(), 'ed25519-2020', { privateKey: stranger.privateKey });
    expect(await verifyStored(enveloped)).toMatchObject({
      verified: false,
      error: { type: 'integrity', message: "The signature does not verify against a key in the issuer's DID document" },
    });
  });

  it('a list that cannot be read, or whose signature fails, fails the credential with a fixed message naming no host', async () => {
    const enveloped = await issuer.envelope(issuer.credential({ credentialStatus: issuer.statusEntry('revocation') }));
    issuer.lists.mode = 'down';
    const down = await verifyStored(enveloped);
    expect(down).toMatchObject({ verified: false, error: { type: 'status', message: "The credential's status list could not be read, so its status is unknown" } });
    issuer.lists.mode = 'forged';
    const forged = await verifyStored(enveloped);
    expect(forged).toMatchObject({ verified: false, error: { type: 'status', message: expect.stringMatching(/status list could not be verified/) } });
    for (const body of [down, forged]) expect(JSON.stringify(body.error)).not.toMatch(/127\.0\.0\.1|https?:/);
  });
});

describe('POST /credentials/verify: DID resolution failures say what happened and nothing more', () => {
  it.each([
    ['a did:web on a host with no document', 'did:web:127.0.0.1%3A9', "The issuer's DID document could not be retrieved from its host"],
    ['a did:web whose host resolves to nothing', 'did:web:no-such-host.invalid', "The issuer's DID document could not be retrieved from its host"],
    ['a did:web whose document is for another DID', 'wrong-document', "The issuer's DID document is not a valid document for that DID"],
    ['a DID method we do not resolve', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', "The issuer's DID uses a method that is not resolved here (did:web is)"],
    ['a malformed did:web', 'did:web:%zz', "The issuer's DID is malformed"],
  ])('%s → integrity, a fixed message for the kind, no address or host', async (_name, named, message) => {
    // The foreign host serves its own document at the path of this DID: valid JSON, but for another DID.
    const did = named === 'wrong-document' ? `${issuer.did}:elsewhere` : named;
    const credential = { ...issuer.credential(), issuer: { type: ['CredentialIssuer'], id: did, name: 'Nobody' } };
    const body = await verifyStored(await issuer.envelope(credential, 'ed25519-2020', { kid: `${did}#key-1` }));
    expect(body).toMatchObject({ verified: false, error: { type: 'integrity', message } });
    expect(JSON.stringify(body.error)).not.toMatch(/127\.0\.0\.1|\.invalid|non-public|ECONN|https?:/);
  });
});
