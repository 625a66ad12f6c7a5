import { CompactSign, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../app.ts';
import { decodePart, jwsOf, sampleCredential, startVcService, type VcService } from './vc-harness.ts';

let vc: VcService;
let issuer: { did: string; controllerKeyId: string };
beforeAll(async () => {
  vc = await startVcService();
  issuer = (await vc.agent('didManagerCreate', { alias: 'issuer.example.com' })).body;
});
afterAll(() => vc.stop());

const issue = (credential: unknown, options: unknown = { proofFormat: 'EnvelopingProofJose' }) =>
  vc.call('POST', '/v2/credentials/issue', { json: { credential, options } });
const verify = (credential: unknown, policies?: unknown) => vc.agent('routeVerificationCredential', { credential, fetchRemoteContexts: true, policies });

describe('VC service issue (contract C.2)', () => {
  it('answers 201 with an EnvelopedVerifiableCredential: EdDSA JWS over the VC JSON, header kid/cty/typ', async () => {
    const credential = sampleCredential(issuer.did);
    const res = await issue(credential);
    expect(res.status).toBe(201);
    const enveloped = res.body.verifiableCredential;
    expect(enveloped).toEqual({ '@context': credential['@context'], type: 'EnvelopedVerifiableCredential', id: expect.stringMatching(/^data:application\/vc\+jwt,ey[\w-]+\.[\w-]+\.[\w-]+$/) });
    const jws = jwsOf(enveloped);
    expect(decodePart(jws, 0)).toEqual({ alg: 'EdDSA', kid: `${issuer.did}#${issuer.controllerKeyId}-JsonWebKey-key-0`, cty: 'vc', typ: 'vc+jwt' });
    expect(decodePart(jws, 1)).toEqual(credential);
    expect((await issue(sampleCredential(issuer.did, { issuer: issuer.did }), undefined)).status).toBe(201);
  });

  it('refuses bad requests with a 400 naming the field, never a 500', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /credential is required/],
      [{ credential: 'x' }, /credential must be a JSON object/],
      [{ credential: sampleCredential(issuer.did), options: { proofFormat: 'lds' } }, /options.proofFormat/],
      [{ credential: { ...sampleCredential(issuer.did), type: ['Other'] } }, /must include `VerifiableCredential`/],
      [{ credential: sampleCredential('did:web:stranger.example.com') }, /credential.issuer must be a DID managed by this agent/],
      [{ credential: { ...sampleCredential(issuer.did), issuer: { name: 'no id' } } }, /credential.issuer must be a DID managed/],
      [[1, 2], /body must be a JSON object/],
    ];
    for (const [json, message] of cases) {
      const res = await vc.call('POST', '/v2/credentials/issue', { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.error).toMatch(/^invalid_argument: /);
      expect(res.body.error).toMatch(message);
    }
    expect((await vc.call('POST', '/v2/credentials/issue', { raw: '{"credential":' })).body).toEqual({ error: 'invalid_argument: the body is not valid JSON' });
    const huge = await vc.call('POST', '/v2/credentials/issue', { json: { credential: { pad: 'x'.repeat(MAX_BODY_BYTES) } } });
    expect(huge.status).toBe(413);
  });
});

describe('VC service verification (contract C.3)', () => {
  it('verifies its own credentials; tampering, a foreign kid, alg none and a bad shape fail with a reason', async () => {
    const credential = sampleCredential(issuer.did);
    const enveloped = (await issue(credential)).body.verifiableCredential;
    expect((await verify(enveloped, { credentialStatus: true })).body).toEqual({ verified: true, mediaType: 'vc+jwt', document: credential });

    const [h, p, s] = jwsOf(enveloped).split('.');
    const forged = Buffer.from(JSON.stringify({ ...credential, credentialSubject: { name: 'Fake' } })).toString('base64url');
    const tampered = (await verify({ ...enveloped, id: `data:application/vc+jwt,${h}.${forged}.${s}` })).body;
    expect(tampered).toMatchObject({ verified: false, error: { errorCode: 'invalid_signature' } });

    const otherKid = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: `${issuer.did}#other`, typ: 'vc+jwt' })).toString('base64url');
    expect((await verify({ ...enveloped, id: `data:application/vc+jwt,${otherKid}.${p}.${s}` })).body.error.message).toContain(
      "kid does not match any key in the issuer's DID document",
    );
    const none = Buffer.from(JSON.stringify({ alg: 'none', kid: 'x' })).toString('base64url');
    expect((await verify({ ...enveloped, id: `data:application/vc+jwt,${none}.${p}.` })).body).toMatchObject({ verified: false, error: { errorCode: 'invalid_jws' } });
    const wrongIss = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'x', iss: 'did:web:else' })).toString('base64url');
    expect((await verify({ ...enveloped, id: `data:application/vc+jwt,${wrongIss}.${p}.${s}` })).body.error.message).toMatch(/iss/);
    expect((await verify({ ...enveloped, id: 'data:application/vc+jwt,abc' })).body).toMatchObject({ verified: false, error: { errorCode: 'invalid_jws' } });
    expect((await verify({ type: 'VerifiableCredential', id: 'x' })).body).toMatchObject({ verified: false, error: { errorCode: 'invalid_argument' } });
    expect(await vc.agent('routeVerificationCredential', {})).toEqual({ status: 400, body: { error: 'invalid_argument: credential is required' } });
  });

  it('a DID deleted after issuing no longer verifies (its document is gone), and an unreachable did:web fails to resolve', async () => {
    const { did } = (await vc.agent('didManagerCreate', { alias: 'gone.example.com' })).body;
    const enveloped = (await issue(sampleCredential(did))).body.verifiableCredential;
    await vc.agent('didManagerDelete', { did });
    expect((await verify(enveloped)).body).toMatchObject({ verified: false, error: { errorCode: 'resolver_error' } });
    expect((await issue(sampleCredential(did))).status).toBe(400);

    // A credential signed elsewhere by a did:web on a non-public address: the guarded fetch refuses it.
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const foreign = sampleCredential('did:web:127.0.0.1%3A9');
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(foreign)))
      .setProtectedHeader({ alg: 'EdDSA', kid: 'did:web:127.0.0.1%3A9#k', typ: 'vc+jwt' })
      .sign(privateKey);
    const res = await verify({ type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${jws}` });
    expect(res.body).toMatchObject({ verified: false, error: { errorCode: 'resolver_error', message: expect.stringContaining('not a public address') } });
  });
});
