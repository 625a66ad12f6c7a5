import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/rig/postgres-server.ts';
import { startVcService, type VcService } from '../../../vc-service/test/vc-harness.ts';
import { createGuardedFetch } from '../../net/guarded-fetch.ts';
import { AdapterError } from '../adapter-errors.ts';
import { createVcAdapter, type VcAdapter } from './vc-adapter.ts';

let service: VcService;
let vc: VcAdapter;
const fetcher = createGuardedFetch({ allowPrivate: true, userAgent: 'css-test' });

/** The adapter against this project's own VC service (vc-service/), the program as deployed. */
beforeAll(async () => {
  service = await startVcService();
  vc = createVcAdapter({ baseUrl: service.url, apiKey: service.apiKey, apiVersion: '1.0.0' }, fetcher);
});
afterAll(() => service.stop());

const credential = (issuer: string, extra: Record<string, unknown> = {}) => ({
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  type: ['VerifiableCredential', 'DigitalProductPassport'],
  id: 'urn:uuid:5b7e0b8e-4c5c-4a8e-9e1a-000000000001',
  issuer: { type: ['CredentialIssuer'], id: issuer, name: 'Acme' },
  credentialSubject: { id: 'https://id.example.com/01/09520123456788', name: 'Widget' },
  ...extra,
});

describe('VC adapter against the VC service', () => {
  it('manages did:web identifiers: create, get, list, resolve, delete', async () => {
    const created = await vc.createDid('example.com:3332');
    expect(created.did).toBe('did:web:example.com%3A3332');
    expect(created.keys[0]).toMatchObject({ type: 'Ed25519', publicKeyHex: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await vc.getDid(created.did))!.did).toBe(created.did);
    expect((await vc.listDids()).map((d) => d.did)).toContain(created.did);
    const doc = await vc.resolveDocument(created.did);
    expect(doc).toMatchObject({ id: created.did });
    expect(doc!.verificationMethod).toContainEqual(expect.objectContaining({ type: 'JsonWebKey', publicKeyJwk: expect.objectContaining({ kty: 'OKP', crv: 'Ed25519' }) }));
    await vc.deleteDid(created.did);
    expect(await vc.getDid(created.did)).toBeUndefined();
    expect(await vc.resolveDocument(created.did)).toBeUndefined();
    await vc.deleteDid(created.did); // already gone: not an error
  });

  it('issues enveloped VC-JOSE, verifies it, and follows revocation through the status list', async () => {
    const { did } = await vc.createDid('issuer.example.com');
    const entry = await vc.mintStatus(did, 'revocation');
    expect(entry).toMatchObject({ type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: expect.any(Number) });
    const { enveloped, decoded } = await vc.issue(credential(did, { credentialStatus: entry }));
    expect(enveloped.type).toBe('EnvelopedVerifiableCredential');
    expect(enveloped.id).toMatch(/^data:application\/vc\+jwt,ey/);
    const header = JSON.parse(Buffer.from(enveloped.id.split(',')[1]!.split('.')[0]!, 'base64url').toString());
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'vc+jwt', cty: 'vc', kid: expect.stringContaining(`${did}#`) });
    expect(decoded).toMatchObject({ id: credential(did).id, credentialStatus: entry });
    expect((await vc.verify(enveloped)).verified).toBe(true);
    expect(await vc.checkStatus(entry, did)).toEqual({ revoked: false });
    await vc.setStatus(entry, did, true);
    expect(await vc.checkStatus(entry, did)).toEqual({ revoked: true });
    expect(await vc.verify(enveloped)).toMatchObject({ verified: false, error: { errorCode: 'revoked' } });
    expect((await vc.verify(enveloped, { checkStatus: false })).verified).toBe(true);
  });

  it('a tampered credential does not verify', async () => {
    const { did } = await vc.createDid('tamper.example.com');
    const { enveloped } = await vc.issue(credential(did));
    const [h, p, s] = enveloped.id.split(',')[1]!.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), credentialSubject: { name: 'Fake' } })).toString('base64url');
    expect((await vc.verify({ ...enveloped, id: `data:application/vc+jwt,${h}.${forged}.${s}` })).verified).toBe(false);
  });

  it('refusals are rejected with the upstream message; failures are unavailable', async () => {
    const unmanaged = await vc.issue(credential('did:web:stranger.example.com')).catch((e) => e);
    expect(unmanaged).toBeInstanceOf(AdapterError);
    expect(unmanaged).toMatchObject({ kind: 'rejected', status: 400, message: expect.stringContaining('must be a DID managed by this agent') });
    const noType = await vc.issue({ ...credential('x'), type: ['Other'] }).catch((e) => e);
    expect(noType).toMatchObject({ kind: 'rejected', message: expect.stringMatching(/must include `VerifiableCredential`/) });
    const badKey = await createVcAdapter({ baseUrl: service.url, apiKey: 'wrong', apiVersion: '1.0.0' }, fetcher).listDids().catch((e) => e);
    expect(badKey).toMatchObject({ kind: 'rejected', status: 401 });
    const taken = await vc.createDid('taken.example.com').then(() => vc.createDid('taken.example.com')).catch((e) => e);
    expect(taken).toMatchObject({ kind: 'rejected', status: 409, message: expect.stringContaining('already exists') });
    const nobody = createVcAdapter({ baseUrl: `http://127.0.0.1:${await freePort()}`, apiKey: 'k', apiVersion: '1.0.0' }, fetcher);
    expect(await nobody.listDids().catch((e) => e)).toMatchObject({ kind: 'unavailable' });
  });
});
