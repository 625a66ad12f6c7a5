import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWithHost, sampleCredential, startVcService, type VcService } from './vc-harness.ts';

/**
 * Our status lists as their clients read them: content negotiation between the W3C VC-JOSE form and
 * VCkit's enveloped JSON, and Digital Bazaar's Bitstring Status List client reading the JWS form.
 */
let vc: VcService;
let issuer: string;
beforeAll(async () => {
  vc = await startVcService();
  issuer = (await vc.agent('didManagerCreate', { alias: 'lists.example.com' })).body.did;
});
afterAll(() => vc?.stop());

const mint = async (statusPurpose: string) => (await vc.agent('issueBitstringStatusList', { statusPurpose, bitstringStatusIssuer: issuer })).body;
const setBit = (entry: Record<string, unknown>, status: boolean) =>
  vc.agent('setBitstringStatus', { statusListCredential: entry.statusListCredential, statusListVCIssuer: issuer, statusPurpose: entry.statusPurpose, index: entry.statusListIndex, status });
const get = (entry: Record<string, unknown>, headers: Record<string, string>) => vc.call('GET', new URL(entry.statusListCredential as string).pathname, { key: null, headers });

describe('status list content negotiation', () => {
  it('application/vc+jwt gets the compact JWS; application/json, */* and no preference the enveloped form (what VCkit reads); each with its own ETag', async () => {
    const entry = await mint('revocation');
    const enveloped = await get(entry, { accept: 'application/json' });
    expect(enveloped.status).toBe(200);
    expect(enveloped.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(enveloped.body).toMatchObject({ type: 'EnvelopedVerifiableCredential', id: expect.stringMatching(/^data:application\/vc\+jwt,/) });
    const jws = enveloped.body.id.slice(enveloped.body.id.indexOf(',') + 1);

    for (const accept of ['application/vc+jwt', 'application/json;q=0.5, application/vc+jwt', 'text/html,*/*;q=0.8,application/vc+jwt', 'application/vc+jwt, application/json']) {
      const res = await get(entry, { accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type'), accept).toBe('application/vc+jwt');
      expect(res.text, accept).toBe(jws);
      expect(res.headers.get('vary')).toBe('Accept');
    }
    // VCkit 1.1's status check fetches with Accept */*: it must keep getting JSON.
    for (const accept of ['*/*', 'application/*', 'text/html,application/xhtml+xml,*/*;q=0.8']) {
      const res = await get(entry, { accept });
      expect(res.headers.get('content-type'), accept).toBe('application/json; charset=utf-8');
      expect(res.text, accept).toBe(enveloped.text);
    }
    expect((await get(entry, { accept: 'application/vc+jwt;q=0.1, application/json' })).headers.get('content-type')).toMatch(/^application\/json/);

    const jwsTag = (await get(entry, { accept: 'application/vc+jwt' })).headers.get('etag')!;
    expect(jwsTag).not.toBe(enveloped.headers.get('etag'));
    expect((await get(entry, { accept: 'application/vc+jwt', 'if-none-match': jwsTag })).status).toBe(304);
    // The other form's tag does not match this one.
    expect((await get(entry, { accept: 'application/vc+jwt', 'if-none-match': enveloped.headers.get('etag')! })).status).toBe(200);

    const refused = await get(entry, { accept: 'text/html' });
    expect(refused.status).toBe(406);
    expect(refused.body.error).toBe('not_acceptable: the status list is served as application/vc+jwt or application/json');
  });
});

describe("Digital Bazaar's Bitstring Status List client on our lists", () => {
  /** The client's document loader: the list as a W3C verifier fetches it (VC-JOSE), its JWS verified against the issuer's did:web document. */
  const documentLoader = async (url: string) => {
    const res = await fetch(url, { headers: { accept: 'application/vc+jwt' } });
    const jws = await res.text();
    const { kid, alg } = decodeProtectedHeader(jws);
    const host = decodeURIComponent(issuer.slice('did:web:'.length));
    const didDocument = JSON.parse((await getWithHost(`${vc.url}/.well-known/did.json`, host)).body);
    const method = didDocument.verificationMethod.find((m: { id: string }) => m.id === kid);
    const { payload } = await compactVerify(jws, await importJWK(method.publicKeyJwk as JWK, alg));
    return { document: JSON.parse(new TextDecoder().decode(payload)) };
  };
  const statusOf = async (entry: Record<string, unknown>) => {
    // The JOSE signature is checked by the loader above; the client's own check is for Data Integrity proofs.
    const result = await checkStatus({ credential: sampleCredential(issuer, { credentialStatus: entry }), documentLoader, verifyBitstringStatusListCredential: false });
    expect(result.error).toBeUndefined();
    expect(result.verified).toBe(true);
    return result.results[0]?.status;
  };

  it('reads an untouched, a revoked and a suspended credential', async () => {
    const [revocation, suspension, untouched] = [await mint('revocation'), await mint('suspension'), await mint('revocation')];
    expect(await setBit(revocation, true)).toEqual({ status: 200, body: { status: true } });
    expect(await setBit(suspension, true)).toEqual({ status: 200, body: { status: true } });
    expect(await statusOf(untouched)).toBe(false);
    expect(await statusOf(revocation)).toBe(true);
    expect(await statusOf(suspension)).toBe(true);
    expect(await setBit(revocation, false)).toEqual({ status: 200, body: { status: false } });
    expect(await statusOf(revocation)).toBe(false);
  });
});
