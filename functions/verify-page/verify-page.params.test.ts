import { describe, expect, it } from 'vitest';

// The page's own browser modules that need no DOM (plain JavaScript, untyped), run here for their edge cases.
const asset = (name: string) => import(new URL(`./assets/${name}`, import.meta.url).href);
const { failureMessage } = await asset('messages.js');
const { addressWithoutKey, readRequest } = await asset('params.js');
const { issuerText, typeText, utcDate } = await asset('summary.js');

const KEY = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);
const q = (payload: unknown) => `q=${encodeURIComponent(JSON.stringify(payload))}`;

describe('what the page verifies (readRequest)', () => {
  it('direct parameters win over q, decryptionKey over key, at each level', () => {
    expect(readRequest(`?uri=https://a.example/c&${q({ payload: { uri: 'https://b.example/c', hash: 'h', key: OTHER } })}`)).toEqual({
      request: { uri: 'https://a.example/c', digestMultibase: undefined, hash: 'h', decryptionKey: OTHER },
      problem: undefined,
    });
    expect(readRequest(`?${q({ payload: { uri: 'https://b.example/c', key: OTHER, decryptionKey: KEY } })}`).request.decryptionKey).toBe(KEY);
    expect(readRequest(`?key=${OTHER}&decryptionKey=${KEY}`).request.decryptionKey).toBe(KEY);
    expect(readRequest(`?key=${OTHER}&${q({ payload: { decryptionKey: KEY } })}`).request.decryptionKey).toBe(OTHER);
  });

  it('blank values count as absent; a q that is not {"payload":{…}} is reported, not thrown', () => {
    expect(readRequest(`?uri=&${q({ payload: { uri: 'https://b.example/c' } })}`).request.uri).toBe('https://b.example/c');
    for (const bad of ['q=%7Bnot json', q({ payload: 'x' }), q([1]), q({ payload: [1] })]) {
      const { request, problem } = readRequest(`?${bad}`);
      expect(problem, bad).toMatch(/its q parameter is not of the form/);
      expect(request.uri).toBeUndefined();
    }
  });
});

describe('the address without its key (addressWithoutKey)', () => {
  it('takes out decryptionKey and key, direct or inside q, and keeps everything else', () => {
    const base = 'https://css.example/verify';
    expect(addressWithoutKey(`${base}?uri=https%3A%2F%2Fa.example%2Fc&decryptionKey=${KEY}&key=${OTHER}`)).toBe(`${base}?uri=https%3A%2F%2Fa.example%2Fc`);
    const cleaned = addressWithoutKey(`${base}?${q({ payload: { uri: 'https://a.example/c', key: KEY, decryptionKey: KEY } })}`)!;
    expect(cleaned).not.toContain(KEY);
    expect(JSON.parse(new URL(cleaned).searchParams.get('q')!)).toEqual({ payload: { uri: 'https://a.example/c' } });
    expect(addressWithoutKey(`${base}?uri=https%3A%2F%2Fa.example%2Fc`)).toBeNull();
    expect(addressWithoutKey(`${base}?q=%7Bbroken`)).toBeNull();
  });
});

describe('summary values', () => {
  it('Valid from is the UTC calendar date, or nothing when it does not parse', () => {
    expect(utcDate('2026-03-04T22:30:00-05:00')).toBe('2026-03-05');
    expect(utcDate('2026-01-01T00:00:00Z')).toBe('2026-01-01');
    for (const bad of ['not a date', '', undefined, 42, '+275760-09-14T00:00:00.001Z']) expect(utcDate(bad), String(bad)).toBeUndefined();
  });

  it('type without VerifiableCredential, issuer as name and id', () => {
    expect(typeText({ type: ['VerifiableCredential', 'DigitalProductPassport'] })).toBe('DigitalProductPassport');
    expect(typeText({ type: 'VerifiableCredential' })).toBe('VerifiableCredential');
    expect(typeText({})).toBeUndefined();
    expect(issuerText({ issuer: { id: 'did:web:a', name: 'A' } })).toBe('A (did:web:a)');
    expect(issuerText({ issuer: 'did:web:a' })).toBe('did:web:a');
    expect(issuerText({ issuer: { name: 'A' } })).toBe('A');
    expect(issuerText({ issuer: 7 })).toBeUndefined();
  });
});

describe('failure messages', () => {
  it('each API outcome gets its own message; 429 says when to retry', () => {
    const codes = ['DECRYPTION_FAILED', 'ENVELOPE_INVALID', 'DIGEST_MISMATCH', 'DECRYPTED_NOT_JSON', 'UNSUPPORTED_CREDENTIAL_TYPE', 'INVALID_RESPONSE'];
    const messages = codes.map((code) => failureMessage({ status: 422, code }));
    expect(new Set(messages).size).toBe(codes.length);
    expect(failureMessage({ status: 429, retryAfter: '17' })).toBe('Too many verifications right now. Try again in 17 seconds.');
    expect(failureMessage({ status: 400, error: 'uri: must be an http(s) URL' })).toBe('The verification link is incomplete or malformed: uri: must be an http(s) URL');
    expect(failureMessage({ status: 502, code: 'UPSTREAM_ERROR' })).toMatch(/could not be reached/);
    expect(failureMessage({ status: 0 })).toMatch(/could not be contacted/);
  });
});
