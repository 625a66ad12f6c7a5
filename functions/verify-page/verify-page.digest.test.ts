import { createHash } from 'node:crypto';
import { base58btc } from 'multiformats/bases/base58';
import { base64url } from 'multiformats/bases/base64';
import { describe, expect, it } from 'vitest';

// The page's digest check (a browser module without DOM), against the multiformats library the server uses.
const { digestMatches, sha256OfMultibase } = await import(new URL('./assets/digest.js', import.meta.url).href);
const { statusText, summaryRows } = await import(new URL('./assets/summary.js', import.meta.url).href);

const TEMPLATE = '<h1>{{credentialSubject.name}}</h1> ünïcode';
const sha = createHash('sha256').update(TEMPLATE, 'utf8').digest();
const multihash = Uint8Array.from([0x12, 0x20, ...sha]);

describe('the page’s digestMultibase check', () => {
  it('reads a sha2-256 multihash in base58btc, base64url and base16, and matches the template’s UTF-8 bytes', async () => {
    for (const encoded of [base58btc.encode(multihash), base64url.encode(multihash), `f${Buffer.from(multihash).toString('hex')}`]) {
      expect(Buffer.from(sha256OfMultibase(encoded)).equals(sha), encoded).toBe(true);
      expect(await digestMatches(TEMPLATE, encoded), encoded).toBe(true);
      expect(await digestMatches(`${TEMPLATE} `, encoded), encoded).toBe(false);
    }
  });

  it('refuses what is not a sha2-256 multihash', async () => {
    const sha512ish = Uint8Array.from([0x13, 0x20, ...sha]);
    for (const bad of ['', 'z', 'zQm', base58btc.encode(sha512ish), base58btc.encode(sha), 'x123', 'z0OIl', undefined, 42]) {
      expect(sha256OfMultibase(bad), String(bad)).toBeUndefined();
      expect(await digestMatches(TEMPLATE, bad), String(bad)).toBe(false);
    }
  });
});

describe('the status row', () => {
  it('says what the status check found for a verified credential, and nothing for one that failed', () => {
    expect(statusText({ credentialStatus: { type: 'BitstringStatusListEntry' } }, true)).toBe('Not revoked or suspended');
    expect(statusText({}, true)).toMatch(/^Not checked/);
    expect(statusText({ credentialStatus: {} }, false)).toBeUndefined();
    expect(summaryRows({ type: ['VerifiableCredential', 'DigitalProductPassport'] }, false)).toEqual([['Type', 'DigitalProductPassport']]);
  });
});
