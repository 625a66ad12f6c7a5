import { Bitstring } from '@digitalbazaar/bitstring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_LIST_LENGTH } from '../status-lists.ts';
import { decodePart, jwsOf, sampleCredential, startVcService, type VcService } from './vc-harness.ts';

let vc: VcService;
let second: VcService;
let issuer: string;
beforeAll(async () => {
  vc = await startVcService();
  // A second program on the same database and public URL (as replicas behind one name): mints from both must never share an index.
  second = await startVcService({ databaseUrl: vc.databaseUrl, env: { PUBLIC_URL: vc.url } });
  issuer = (await vc.agent('didManagerCreate', { alias: 'status.example.com' })).body.did;
});
afterAll(async () => {
  await second.stop();
  await vc.stop();
});

const mint = (service: VcService, body: Record<string, unknown> = {}) =>
  service.agent('issueBitstringStatusList', { statusPurpose: 'revocation', bitstringStatusIssuer: issuer, ...body });
const decodeList = async (text: string) => {
  const credential = decodePart(jwsOf(JSON.parse(text)), 1);
  return { credential, bits: new Bitstring({ buffer: await Bitstring.decodeBits({ encoded: credential.credentialSubject.encodedList.slice(1) }) }) };
};

describe('VC service bitstring status lists (contract C.5)', () => {
  it('allocates entries 0, 1, 2… on a list of its own URL, in the contract shape', async () => {
    const first = await mint(vc);
    expect(first.status).toBe(200);
    const url = first.body.statusListCredential;
    expect(url).toMatch(new RegExp(`^${vc.url}/credentials/status/bitstring-status-list/\\d+$`));
    expect(first.body).toEqual({ id: `${url}#0`, type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: 0, statusListCredential: url });
    expect((await mint(vc)).body.statusListIndex).toBe(1);
    const suspension = await mint(vc, { statusPurpose: 'suspension' });
    expect(suspension.body.statusListCredential).not.toBe(url);
    expect(suspension.body.statusListIndex).toBe(0);
  });

  it('concurrent mints from two processes never share an index', async () => {
    const { body } = await mint(vc, { statusPurpose: 'message' });
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => mint(i % 2 ? second : vc, { statusPurpose: 'message' })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const indexes = results.map((r) => r.body.statusListIndex).sort((a, b) => a - b);
    expect(indexes).toEqual(Array.from({ length: 60 }, (_, i) => body.statusListIndex + 1 + i));
    expect(new Set(results.map((r) => r.body.statusListCredential))).toEqual(new Set([body.statusListCredential]));
  });

  it('publishes a signed, GZIP multibase list of at least 131,072 entries; a set bit re-signs it and shows in check and verify', async () => {
    const entry = (await mint(vc)).body;
    const path = new URL(entry.statusListCredential).pathname;
    const json = { accept: 'application/json' };
    const before = await vc.call('GET', path, { key: null, headers: json });
    expect(before.status).toBe(200);
    expect(before.headers.get('cache-control')).toBe('public, no-cache');
    const etag = before.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await vc.call('GET', path, { key: null, headers: { ...json, 'if-none-match': etag } })).status).toBe(304);
    const listed = JSON.parse(before.text);
    expect(listed.type).toBe('EnvelopedVerifiableCredential');
    expect((await vc.agent('routeVerificationCredential', { credential: listed })).body.verified).toBe(true);
    const { credential, bits } = await decodeList(before.text);
    expect(credential).toMatchObject({
      id: entry.statusListCredential,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer,
      credentialSubject: { type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: expect.stringMatching(/^u[\w-]+$/) },
    });
    expect(bits.length).toBeGreaterThanOrEqual(MIN_LIST_LENGTH);
    expect(bits.get(entry.statusListIndex)).toBe(false);

    const enveloped = (await vc.call('POST', '/v2/credentials/issue', { json: { credential: sampleCredential(issuer, { credentialStatus: entry }) } })).body.verifiableCredential;
    const check = () => vc.agent('checkBitstringStatus', { verifiableCredential: { credentialStatus: entry, issuer: { id: issuer } } });
    expect((await check()).body).toEqual({ revoked: false });
    expect((await vc.agent('routeVerificationCredential', { credential: enveloped })).body.verified).toBe(true);
    // The second process reads (and caches) the list's bits now; the change below must reach it.
    expect((await second.agent('routeVerificationCredential', { credential: enveloped })).body.verified).toBe(true);

    const set = { statusListCredential: entry.statusListCredential, statusListVCIssuer: issuer, statusPurpose: 'revocation', index: entry.statusListIndex, status: true };
    expect(await vc.agent('setBitstringStatus', set)).toEqual({ status: 200, body: { status: true } });
    const after = await vc.call('GET', path, { key: null, headers: { ...json, 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect((await decodeList(after.text)).bits.get(entry.statusListIndex)).toBe(true);
    expect((await decodeList(after.text)).bits.get(entry.statusListIndex + 1)).toBe(false);
    expect((await check()).body).toEqual({ revoked: true });
    // The second process hears of the change by a notification, which may take a moment on a loaded machine:
    // asked again for at most 4 s, less than its cache's 5 s backstop, so only the notification can explain a pass.
    const secondVerdict = async () => (await second.agent('routeVerificationCredential', { credential: enveloped })).body;
    let verdict = await secondVerdict();
    for (const started = Date.now(); verdict.verified !== false && Date.now() - started < 4_000; verdict = await secondVerdict()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(verdict).toEqual({
      verified: false,
      error: { message: 'revoked: The credential was revoked by the issuer', errorCode: 'revoked' },
    });
    expect((await vc.agent('routeVerificationCredential', { credential: enveloped, policies: { credentialStatus: false } })).body.verified).toBe(true);

    expect((await vc.agent('setBitstringStatus', { ...set, status: false })).body).toEqual({ status: false });
    expect((await check()).body).toEqual({ revoked: false });
  });

  it('refuses bad status requests with 4xx naming the field', async () => {
    const entry = (await mint(vc)).body;
    const set = { statusListCredential: entry.statusListCredential, statusListVCIssuer: issuer, statusPurpose: 'revocation', index: 0, status: true };
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ ...set, index: -1 }, 400, /^invalid_argument: index/],
      [{ ...set, index: MIN_LIST_LENGTH }, 400, /^invalid_argument: index/],
      [{ ...set, index: '3' }, 400, /^invalid_argument: index/],
      [{ ...set, status: 'yes' }, 400, /^invalid_argument: status/],
      [{ ...set, statusListVCIssuer: 'did:web:other.example.com' }, 400, /statusListVCIssuer/],
      [{ ...set, statusPurpose: 'suspension' }, 400, /statusPurpose/],
      [{ ...set, statusListCredential: `${vc.url}/credentials/status/bitstring-status-list/999999` }, 404, /^not_found/],
      [{ ...set, statusListCredential: 'https://elsewhere.example.com/list/1' }, 404, /^not_found/],
      [{ ...set, statusListCredential: null }, 400, /statusListCredential is required/],
    ];
    for (const [body, status, message] of cases) {
      const res = await vc.agent('setBitstringStatus', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error).toMatch(message);
    }
    const mints: [Record<string, unknown>, RegExp][] = [
      [{ statusPurpose: undefined }, /statusPurpose is required/],
      [{ statusPurpose: 'not a word' }, /statusPurpose/],
      [{ bitstringStatusIssuer: 'did:web:stranger.example.com' }, /bitstringStatusIssuer must be a DID managed/],
      [{ bitstringLength: 1024 }, /bitstringLength/],
      [{ statusSize: 2 }, /statusSize/],
    ];
    for (const [body, message] of mints) {
      const res = await mint(vc, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    // checkBitstringStatus reads the entry's bit whatever the list's purpose (contract C.5).
    const suspension = (await mint(vc, { statusPurpose: 'suspension' })).body;
    const checkSuspension = () => vc.agent('checkBitstringStatus', { verifiableCredential: { credentialStatus: suspension, issuer: { id: issuer } } });
    expect((await checkSuspension()).body).toEqual({ revoked: false });
    const suspend = { statusListCredential: suspension.statusListCredential, statusListVCIssuer: issuer, statusPurpose: 'suspension', index: suspension.statusListIndex, status: true };
    expect((await vc.agent('setBitstringStatus', suspend)).body).toEqual({ status: true });
    expect((await checkSuspension()).body).toEqual({ revoked: true });
    expect((await vc.agent('setBitstringStatus', { ...suspend, status: false })).body).toEqual({ status: false });
    expect((await checkSuspension()).body).toEqual({ revoked: false });
    expect((await vc.agent('checkBitstringStatus', { verifiableCredential: {} })).body).toEqual({
      revoked: false,
      message: 'credentialStatus property was not set on the original credential',
    });
    expect((await vc.agent('checkBitstringStatus', {})).status).toBe(400);
    expect((await vc.call('GET', '/credentials/status/bitstring-status-list/999999', { key: null })).status).toBe(404);
    expect((await vc.call('GET', '/credentials/status/bitstring-status-list/abc', { key: null })).status).toBe(404);
  });
});
