import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptToEnvelope } from '../../storage-service/envelope.ts';
import { pointVcInstance, unreachableVc } from '../../test/rig/did-fixtures.ts';
import { SYSTEM_SERVICE_IDS } from '../../test/rig/fixtures.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { startVerifyRig, VERIFY_PATH, verifyQuery, type VerifyRig } from '../../test/rig/verify-rig.ts';
import { jwsOf, sampleCredential } from '../../vc-service/test/vc-harness.ts';

let rig: VerifyRig;
beforeAll(async () => {
  rig = await startVerifyRig();
});
afterAll(() => rig.close());

const refusal = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

describe('422: the credential could not be checked', () => {
  it('DECRYPTION_REQUIRED: an encrypted credential without a decryptionKey', async () => {
    const stored = await rig.store(await rig.issue(), { encrypt: true });
    expect(refusal(await rig.verify({ uri: stored.uri, digestMultibase: stored.digestMultibase }))).toEqual({
      status: 422,
      body: { error: 'The credential is encrypted: a decryptionKey is required', code: 'DECRYPTION_REQUIRED' },
    });
  });

  it('DECRYPTION_FAILED: a key that does not open the envelope, or an envelope whose tag was altered', async () => {
    const stored = await rig.store(await rig.issue(), { encrypt: true });
    const wrongKey = await rig.verify({ uri: stored.uri, decryptionKey: 'ab'.repeat(32) });
    expect(refusal(wrongKey)).toEqual({ status: 422, body: { error: 'The credential could not be decrypted with this decryptionKey', code: 'DECRYPTION_FAILED' } });
    const envelope = await (await fetch(stored.uri)).json();
    const tag = Buffer.from(envelope.tag, 'base64');
    tag[0] = tag[0]! ^ 1;
    const uri = rig.source.serve('/altered-tag', { ...envelope, tag: tag.toString('base64') });
    expect((await rig.verify({ uri, decryptionKey: stored.decryptionKey })).body.code).toBe('DECRYPTION_FAILED');
  });

  it('ENVELOPE_INVALID: an envelope with a wrong type, a short iv, or a part that is not base64', async () => {
    const stored = await rig.store(await rig.issue(), { encrypt: true });
    const envelope = await (await fetch(stored.uri)).json();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...envelope, type: 'aes-128-cbc' }, 'type must be aes-256-gcm'],
      [{ ...envelope, iv: Buffer.alloc(8).toString('base64') }, 'iv must be 12 bytes'],
      [{ ...envelope, cipherText: 'not base64!' }, 'cipherText is not base64'],
      // Padding: whole groups of four, at most two `=` and only at the end.
      [{ ...envelope, cipherText: 'QUJDQQ' }, 'cipherText is not base64'],
      [{ ...envelope, cipherText: 'QQ===' }, 'cipherText is not base64'],
      [{ ...envelope, cipherText: 'Q===' }, 'cipherText is not base64'],
      [{ ...envelope, cipherText: 'QQ==QUJD' }, 'cipherText is not base64'],
      [{ ...envelope, iv: `${envelope.iv.slice(0, -4)}\nAAA` }, 'iv is not base64'],
      [{ ...envelope, tag: 42 }, 'tag is not base64'],
      [{ cipherText: envelope.cipherText, iv: envelope.iv, type: envelope.type }, 'tag is missing'],
    ];
    for (const [broken, why] of cases) {
      const uri = rig.source.serve('/broken-envelope', broken);
      expect(refusal(await rig.verify({ uri, decryptionKey: stored.decryptionKey })), why).toEqual({
        status: 422,
        body: { error: `The encrypted credential is malformed: ${why}`, code: 'ENVELOPE_INVALID' },
      });
    }
  });

  it('DECRYPTED_NOT_JSON: the plaintext is not a JSON object', async () => {
    for (const plaintext of ['not json at all', '[1,2,3]']) {
      const { envelope, decryptionKey } = encryptToEnvelope(plaintext, 'application/json');
      const uri = rig.source.serve('/not-json-inside', envelope);
      expect(refusal(await rig.verify({ uri, decryptionKey }))).toEqual({
        status: 422,
        body: { error: 'The decrypted credential is not a JSON object', code: 'DECRYPTED_NOT_JSON' },
      });
    }
  });

  it('DIGEST_MISMATCH: another document’s digestMultibase or hash, plain or encrypted', async () => {
    const enveloped = await rig.issue();
    const stored = await rig.store(enveloped);
    const other = await rig.store({ something: 'else' }, { legacy: true });
    const otherV4 = await rig.store({ something: 'else' });
    expect(refusal(await rig.verify({ uri: stored.uri, digestMultibase: otherV4.digestMultibase }))).toEqual({
      status: 422,
      body: { error: 'The credential does not match digestMultibase', code: 'DIGEST_MISMATCH' },
    });
    expect(refusal(await rig.verify({ uri: stored.uri, hash: other.hash }))).toEqual({
      status: 422,
      body: { error: 'The credential does not match hash', code: 'DIGEST_MISMATCH' },
    });
    // Both given: each must match.
    expect((await rig.verify({ uri: stored.uri, digestMultibase: stored.digestMultibase, hash: other.hash })).body.code).toBe('DIGEST_MISMATCH');
    const encrypted = await rig.store(enveloped, { encrypt: true });
    expect((await rig.verify({ uri: encrypted.uri, decryptionKey: encrypted.decryptionKey, digestMultibase: otherV4.digestMultibase })).body.code).toBe('DIGEST_MISMATCH');
  });

  it('UNSUPPORTED_CREDENTIAL_TYPE: an unsecured credential, or an enveloped one whose id is not a VC-JOSE data: URL', async () => {
    const unsecured = await rig.store(sampleCredential(rig.issuer));
    expect(refusal(await rig.verify({ uri: unsecured.uri }))).toEqual({
      status: 422,
      body: { error: 'Only EnvelopedVerifiableCredential credentials (VC-JOSE) are supported', code: 'UNSUPPORTED_CREDENTIAL_TYPE' },
    });
    const enveloped = await rig.issue();
    const wrongId = await rig.store({ ...enveloped, id: 'https://example.com/vc' });
    expect(refusal(await rig.verify({ uri: wrongId.uri }))).toEqual({
      status: 422,
      body: { error: 'The EnvelopedVerifiableCredential id must be a data:application/vc+jwt URL', code: 'UNSUPPORTED_CREDENTIAL_TYPE' },
    });
  });

  it('INVALID_RESPONSE: the resource is not a JSON object', async () => {
    for (const body of ['<html>not json</html>', '[1,2]', '"text"', '']) {
      const uri = rig.source.serve('/not-an-object', body);
      expect(refusal(await rig.verify({ uri })), body).toEqual({
        status: 422,
        body: { error: 'The resource at uri is not a JSON object', code: 'INVALID_RESPONSE' },
      });
    }
  });
});

describe('documents nested too deep to serialise again: refused or left undecoded, never a 500', () => {
  const deep = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);

  it('a resource (or a decrypted one) nesting past 64 levels is INVALID_RESPONSE; 100,000 levels too', async () => {
    for (const levels of [65, 100_000]) {
      const uri = rig.source.serve('/deep', `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
      expect(refusal(await rig.verify({ uri }))).toEqual({ status: 422, body: { error: 'The resource at uri nests deeper than 64 levels', code: 'INVALID_RESPONSE' } });
    }
    const { envelope, decryptionKey } = encryptToEnvelope(JSON.stringify(deep(65)), 'application/json');
    const uri = rig.source.serve('/deep-inside', envelope);
    expect(refusal(await rig.verify({ uri, decryptionKey }))).toEqual({ status: 422, body: { error: 'The decrypted credential nests deeper than 64 levels', code: 'INVALID_RESPONSE' } });
    const shallow = await rig.store(await rig.issue({ credentialSubject: deep(50) }));
    expect((await rig.verify({ uri: shallow.uri })).body.verified).toBe(true);
  });

  it('a forged JWS whose payload nests 100,000 levels: not verified (integrity), no decodedCredential', async () => {
    const enveloped = (await rig.issue()) as { id: string };
    const [header, , signature] = jwsOf(enveloped).split('.');
    const payload = Buffer.from(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`).toString('base64url');
    const uri = rig.source.serve('/deep-jws', { ...enveloped, id: `data:application/vc+jwt,${header}.${payload}.${signature}` });
    const res = await rig.verify({ uri });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verified: false, error: { type: 'integrity' } });
    expect(res.body.decodedCredential).toBeUndefined();
  });
});

describe('200 verified: false with the reason', () => {
  it('revoked → status; suspended → status; the decoded credential is still shown', async () => {
    for (const purpose of ['revocation', 'suspension']) {
      const credentialStatus = await rig.mintStatus(purpose);
      const enveloped = await rig.issue({ credentialStatus });
      const stored = await rig.store(enveloped);
      expect((await rig.verify({ uri: stored.uri })).body.verified).toBe(true);
      await rig.setStatus(credentialStatus, true);
      const res = await rig.verify({ uri: stored.uri, digestMultibase: stored.digestMultibase });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        verified: false,
        credential: enveloped,
        decodedCredential: sampleCredential(rig.issuer, { credentialStatus }),
        error: { type: 'status', message: expect.stringMatching(purpose === 'revocation' ? /revoked/ : /suspended/) },
      });
      await rig.setStatus(credentialStatus, false);
      expect((await rig.verify({ uri: stored.uri })).body.verified).toBe(true);
    }
  });

  it('expired (validUntil past) or not yet valid (validFrom future) → temporal', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ validFrom: '2020-01-01T00:00:00Z', validUntil: '2021-01-01T00:00:00Z' }, /expired at 2021-01-01T00:00:00.000Z/],
      [{ validFrom: '2999-01-01T00:00:00Z' }, /not valid before 2999-01-01T00:00:00.000Z/],
      [{ validFrom: 'soon' }, /validFrom is not a date-time/],
      [{ validUntil: 42 }, /validUntil is not a date-time/],
    ];
    for (const [window, message] of cases) {
      const stored = await rig.store(await rig.issue(window));
      const res = await rig.verify({ uri: stored.uri });
      expect(res.status).toBe(200);
      expect(res.body, JSON.stringify(window)).toMatchObject({ verified: false, decodedCredential: sampleCredential(rig.issuer, window), error: { type: 'temporal', message: expect.stringMatching(message) } });
    }
  });

  it('revoked and expired: the status failure is the one reported', async () => {
    const credentialStatus = await rig.mintStatus();
    const stored = await rig.store(await rig.issue({ credentialStatus, validUntil: '2021-01-01T00:00:00Z' }));
    await rig.setStatus(credentialStatus, true);
    expect((await rig.verify({ uri: stored.uri })).body.error.type).toBe('status');
  });

  it('a tampered JWS → integrity', async () => {
    const enveloped = (await rig.issue()) as { id: string };
    const [header, , signature] = jwsOf(enveloped).split('.');
    const forgedPayload = Buffer.from(JSON.stringify(sampleCredential(rig.issuer, { credentialSubject: { name: 'Forged' } }))).toString('base64url');
    const forged = { ...enveloped, id: `data:application/vc+jwt,${header}.${forgedPayload}.${signature}` };
    const stored = await rig.store(forged);
    const res = await rig.verify({ uri: stored.uri, digestMultibase: stored.digestMultibase });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verified: false, credential: forged, error: { type: 'integrity', message: expect.stringMatching(/signature/) } });
    const notJws = await rig.store({ ...enveloped, id: 'data:application/vc+jwt,abc' });
    const broken = await rig.verify({ uri: notJws.uri });
    expect(broken.body).toMatchObject({ verified: false, error: { type: 'integrity' } });
    expect(broken.body.decodedCredential).toBeUndefined();
  });
});

describe('502: the source or the VC service failed', () => {
  const upstream = (message: string) => ({ status: 502, body: { error: `The credential could not be retrieved: ${message}`, code: 'UPSTREAM_ERROR' } });

  it('more than 3 redirects', async () => {
    for (const hop of [1, 2, 3, 4]) rig.source.routes.set(`/hop${hop}`, (_q, s) => s.writeHead(302, { location: `/hop${hop + 1}` }).end());
    rig.source.serve('/hop5', { never: 'reached' });
    expect(refusal(await rig.verify({ uri: `${rig.source.url}/hop1` }))).toEqual(upstream('too many redirects'));
  });

  it('a body over the size cap', async () => {
    const uri = rig.source.serve('/huge', { padding: 'x'.repeat(1024 * 1024 + 1) });
    expect(refusal(await rig.verify({ uri }))).toEqual(upstream('the response is larger than allowed'));
  });

  it('a source that does not answer in time (the test app’s fetch timeout is 2 s)', async () => {
    const { url } = rig.source.hold('/silent', {});
    expect(refusal(await rig.verify({ uri: url }))).toEqual(upstream('the source did not answer in time'));
  });

  it('an unreachable source, and one that answers an error status', async () => {
    expect(refusal(await rig.verify({ uri: `http://127.0.0.1:${await freePort()}/vc.json` }))).toEqual(upstream('the source could not be reached'));
    expect(refusal(await rig.verify({ uri: `${rig.source.url}/missing.json` }))).toEqual(upstream('the source answered HTTP 404'));
  });

  it('the VC service down → 502 VC_SERVICE_ERROR, without internal addresses', async () => {
    const stored = await rig.store(await rig.issue());
    await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, await unreachableVc());
    try {
      expect(refusal(await rig.verify({ uri: stored.uri }))).toEqual({
        status: 502,
        body: { error: 'The VC service is unavailable; the credential could not be verified', code: 'VC_SERVICE_ERROR' },
      });
    } finally {
      await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, rig.vc);
    }
    expect((await rig.verify({ uri: stored.uri })).body.verified).toBe(true);
  });
});

describe('400: bad input names the field, never a 500', () => {
  const KEY = 'ab'.repeat(32);
  it.each([
    [{}, 'uri: is required'],
    [{ uri: null }, 'uri: must not be null'],
    [{ uri: 42 }, 'uri: must be a string'],
    [{ uri: 'not a url' }, 'uri: must be an absolute http or https URL'],
    [{ uri: 'ftp://example.com/vc.json' }, 'uri: must use http or https'],
    [{ uri: 'https://user:pw@example.com/vc.json' }, 'uri: must not contain a username or password'],
    [{ uri: `https://example.com/${'a'.repeat(2048)}` }, 'uri: must be at most 2048 characters'],
    [{ uri: 'https://example.com/vc.json', digestMultibase: 'zNotADigest' }, 'digestMultibase: must be a multibase-encoded sha2-256 multihash'],
    [{ uri: 'https://example.com/vc.json', digestMultibase: 7 }, 'digestMultibase: must be a string'],
    [{ uri: 'https://example.com/vc.json', hash: 'AB'.repeat(32) }, 'hash: must be 64 lowercase hexadecimal characters'],
    [{ uri: 'https://example.com/vc.json', hash: 'ab' }, 'hash: must be 64 lowercase hexadecimal characters'],
    [{ uri: 'https://example.com/vc.json', decryptionKey: KEY.slice(1) }, 'decryptionKey: must be 64 hexadecimal characters'],
    [{ uri: 'https://example.com/vc.json', decryptionKey: null }, 'decryptionKey: must not be null'],
  ])('POST %j → 400 %s', async (body, message) => {
    expect(refusal(await rig.verify(body))).toEqual({ status: 400, body: { error: message, code: 'VALIDATION_FAILED' } });
  });

  it('GET: the same rules on query parameters; a repeated parameter; POST: unparseable JSON, a body that is not an object', async () => {
    const get = async (path: string) => refusal(await rig.t.call('GET', path));
    expect(await get(VERIFY_PATH)).toEqual({ status: 400, body: { error: 'uri: is required', code: 'VALIDATION_FAILED' } });
    expect(await get(verifyQuery({ uri: 'javascript:alert(1)' }))).toEqual({ status: 400, body: { error: 'uri: must use http or https', code: 'VALIDATION_FAILED' } });
    expect(await get(verifyQuery({ uri: 'https://example.com/a', hash: 'x' }))).toEqual({ status: 400, body: { error: 'hash: must be 64 lowercase hexadecimal characters', code: 'VALIDATION_FAILED' } });
    expect(await get(`${VERIFY_PATH}?uri=https://a.example/1&uri=https://b.example/2`)).toEqual({ status: 400, body: { error: 'uri: query parameter must not be repeated', code: 'VALIDATION_FAILED' } });
    const bad = await rig.t.call('POST', VERIFY_PATH, { rawBody: '{"uri":' });
    expect(refusal(bad)).toEqual({ status: 400, body: { error: 'Invalid JSON body', code: 'INVALID_JSON' } });
    const form = await rig.t.call('POST', VERIFY_PATH, { rawBody: 'uri=https://example.com/vc.json', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect({ status: form.status, code: form.body.code }).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect((await rig.verify([1, 2])).status).toBe(400);
    expect((await rig.verify('text')).status).toBe(400);
  });
});
