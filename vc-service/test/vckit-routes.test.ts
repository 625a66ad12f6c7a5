import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLACED_ROUTES } from '../replaced-routes.ts';
import { sampleCredential, startVcService, type VcService } from './vc-harness.ts';

/** The VCkit routes a VCkit client calls: answered as VCkit answers them, or refused naming the route that replaces them. */
let vc: VcService;
let issuer: string;
beforeAll(async () => {
  vc = await startVcService();
  issuer = (await vc.agent('didManagerCreate', { alias: 'routes.example.com' })).body.did;
});
afterAll(() => vc?.stop());

describe('VCkit client routes', () => {
  it('issue without options, VC-API verify (verifiableCredential), verifyCredential and the status check answer as VCkit does', async () => {
    const credentialStatus = (await vc.agent('issueBitstringStatusList', { statusPurpose: 'revocation', bitstringStatusIssuer: issuer })).body;
    const credential = sampleCredential(issuer, { credentialStatus });
    const issued = await vc.call('POST', '/v2/credentials/issue', { json: { credential } });
    expect(issued.status).toBe(201);
    const enveloped = issued.body.verifiableCredential;
    const verified = { verified: true, mediaType: 'vc+jwt', document: credential };
    expect(await vc.call('POST', '/v2/credentials/verify', { json: { verifiableCredential: enveloped } })).toMatchObject({ status: 200, body: verified });
    expect(await vc.agent('verifyCredential', { credential: enveloped })).toEqual({ status: 200, body: verified });
    expect(await vc.agent('checkBitstringStatus', { verifiableCredential: credential })).toEqual({ status: 200, body: { revoked: false } });

    const older = await vc.call('POST', '/v2/credentials/verify', { json: { credential: enveloped } });
    expect(older).toMatchObject({ status: 400, body: { error: 'invalid_argument: verifiableCredential is required' } });
    expect((await vc.call('POST', '/v2/credentials/verify', { json: { verifiableCredential: enveloped }, key: null })).status).toBe(401);
  });

  it.each(Object.entries(REPLACED_ROUTES))('%s → 404 naming %s', async (route, replacement) => {
    const [method, path] = route.split(' ') as [string, string];
    const res = await vc.call(method, path, { json: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `not_found: ${route} is not served by this service; use ${replacement}` });
  });
});
