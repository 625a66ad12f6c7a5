import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startForeignIssuer, type ForeignIssuer, type ForeignKeyName } from '../../test/rig/foreign-issuer.ts';
import { startVcService, type VcService } from './vc-harness.ts';

/**
 * Credentials this service did not sign: an independent issuer (test/rig/foreign-issuer.ts) with its
 * own keys, did:web document and status lists on a TLS host, verified by the VC service as a program.
 */
let issuer: ForeignIssuer;
let vc: VcService;
beforeAll(async () => {
  issuer = await startForeignIssuer();
  vc = await startVcService({ env: issuer.vcEnv });
});
afterAll(async () => {
  await vc?.stop();
  await issuer?.close();
});
beforeEach(() => {
  issuer.lists.mode = 'jws';
  issuer.lists.cacheControl = 'no-cache';
});

const verify = async (credential: Record<string, unknown>) => (await vc.agent('routeVerificationCredential', { credential, policies: { credentialStatus: true } })).body;

describe('VC service: credentials of another issuer', () => {
  it.each<ForeignKeyName>(['ed25519-2020', 'jwk2020-p256', 'multikey-p256', 'multikey-ed25519'])(
    'the kid picks its %s method among several in their did:web document, and the signature verifies',
    async (key) => {
      const credential = issuer.credential();
      expect(await verify(await issuer.envelope(credential, key))).toEqual({ verified: true, mediaType: 'vc+jwt', document: credential });
    },
  );

  it('a relative kid (#fragment) names the method of the issuer DID', async () => {
    const credential = issuer.credential();
    expect((await verify(await issuer.envelope(credential, 'jwk2020-p256', { kid: '#jwk-p256' }))).verified).toBe(true);
  });

  it('re-signed with another key, a kid of another DID, or a kid naming a key-agreement method: invalid_signature', async () => {
    const credential = issuer.credential();
    const stranger = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const cases = [
      await issuer.envelope(credential, 'ed25519-2020', { privateKey: stranger.privateKey }),
      await issuer.envelope(credential, 'multikey-ed25519', { kid: 'did:web:elsewhere.example#multikey-ed' }),
      await issuer.envelope(credential, 'ed25519-2020', { kid: `${issuer.did}#agreement` }),
      // An ES256 signature presented under the Ed25519 method's kid.
      await issuer.envelope(credential, 'jwk2020-p256', { kid: issuer.keys['ed25519-2020'].kid }),
    ];
    for (const enveloped of cases) {
      expect(await verify(enveloped)).toMatchObject({ verified: false, error: { errorCode: 'invalid_signature' } });
    }
  });

  it('reads their status list: untouched verifies, a revoked or suspended bit fails with its own code', async () => {
    const revocation = issuer.statusEntry('revocation');
    const suspension = issuer.statusEntry('suspension');
    const credential = issuer.credential({ credentialStatus: [revocation, suspension] });
    const enveloped = await issuer.envelope(credential);
    expect((await verify(enveloped)).verified).toBe(true);

    issuer.setStatus(suspension, true);
    expect(await verify(enveloped)).toMatchObject({ verified: false, error: { errorCode: 'suspended' } });
    issuer.setStatus(suspension, false);
    issuer.setStatus(revocation, true);
    expect(await verify(enveloped)).toMatchObject({ verified: false, error: { errorCode: 'revoked' } });
    // VCkit's status check reads the same bit on their list.
    expect((await vc.agent('checkBitstringStatus', { verifiableCredential: credential })).body).toEqual({ revoked: true });
  });

  it('a list served in VCkit enveloped JSON form is read the same way', async () => {
    issuer.lists.mode = 'enveloped';
    const entry = issuer.statusEntry('revocation');
    const enveloped = await issuer.envelope(issuer.credential({ credentialStatus: entry }));
    expect((await verify(enveloped)).verified).toBe(true);
    issuer.setStatus(entry, true);
    expect(await verify(enveloped)).toMatchObject({ verified: false, error: { errorCode: 'revoked' } });
  });

  it('an unreachable list fails with status_list_unavailable, a list with a bad signature with status_list_invalid: never verified', async () => {
    const enveloped = await issuer.envelope(issuer.credential({ credentialStatus: issuer.statusEntry('revocation') }));
    issuer.lists.mode = 'down';
    expect(await verify(enveloped)).toMatchObject({ verified: false, error: { errorCode: 'status_list_unavailable' } });
    issuer.lists.mode = 'forged';
    expect(await verify(enveloped)).toMatchObject({ verified: false, error: { errorCode: 'status_list_invalid', message: expect.stringMatching(/does not verify/) } });
    expect((await vc.agent('checkBitstringStatus', { verifiableCredential: { credentialStatus: issuer.statusEntry('revocation') } })).body).toMatchObject({
      revoked: false,
      errors: [{ message: expect.stringMatching(/^status_list_invalid/) }],
    });
  });

  it('an entry that does not fit the list fails: purpose other than the list, index past its end, a statusSize other than 1', async () => {
    const entry = issuer.statusEntry('revocation');
    for (const wrong of [{ statusPurpose: 'suspension' }, { statusListIndex: '131072' }, { statusSize: 2 }, { statusListIndex: '-1' }]) {
      const enveloped = await issuer.envelope(issuer.credential({ credentialStatus: { ...entry, ...wrong } }));
      expect(await verify(enveloped), JSON.stringify(wrong)).toMatchObject({ verified: false, error: { errorCode: 'status_list_invalid' } });
    }
  });

  it('keeps a list by its caching headers: max-age is reused without asking, no-cache revalidates with the ETag (304)', async () => {
    const entry = issuer.statusEntry('revocation');
    const enveloped = await issuer.envelope(issuer.credential({ credentialStatus: entry }));
    issuer.lists.cacheControl = 'no-cache';
    await verify(enveloped);
    const before = { requests: issuer.lists.requests, notModified: issuer.lists.notModified };
    await verify(enveloped);
    expect(issuer.lists.requests).toBe(before.requests + 1);
    expect(issuer.lists.notModified).toBe(before.notModified + 1);
    // A change shows at the next use: the ETag no longer matches.
    issuer.setStatus(entry, true);
    expect(await verify(enveloped)).toMatchObject({ error: { errorCode: 'revoked' } });
    issuer.setStatus(entry, false);

    issuer.lists.cacheControl = 'public, max-age=120';
    await verify(enveloped);
    const counted = issuer.lists.requests;
    expect((await verify(enveloped)).verified).toBe(true);
    expect(await verify(enveloped)).toMatchObject({ verified: true });
    expect(issuer.lists.requests).toBe(counted);
  });
});
