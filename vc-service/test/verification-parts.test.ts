import { generateKeyPair, exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { freshSeconds } from '../remote-status-lists.ts';
import { bitAt, decodeEncodedList, statusIndexOf } from '../status-bits.ts';
import { preferredListForm } from '../status-list-forms.ts';
import { methodOfKid, publicJwkOf } from '../verification-methods.ts';
import { gzipSync } from 'node:zlib';

/** The rules under foreign-issuer verification, one by one (the end-to-end cases are in foreign-issuers.test.ts). */
describe('verification methods', () => {
  const DID = 'did:web:partner.example.org';
  const document = {
    id: DID,
    verificationMethod: [{ id: '#rel', type: 'JsonWebKey2020', publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: 'AA' } }],
    assertionMethod: [`${DID}#listed-by-id`, { id: `${DID}#embedded`, type: 'Multikey', publicKeyMultibase: 'z6Mk' }],
  };

  it('a kid names a method by DID URL or fragment, relative ids included; a kid of another DID names nothing', () => {
    expect(methodOfKid(document, DID, '#rel')?.type).toBe('JsonWebKey2020');
    expect(methodOfKid(document, DID, `${DID}#rel`)?.type).toBe('JsonWebKey2020');
    expect(methodOfKid(document, DID, `${DID}#embedded`)?.type).toBe('Multikey');
    expect(methodOfKid(document, DID, 'did:web:attacker.example#rel')).toBeUndefined();
    expect(methodOfKid(document, DID, `${DID}#listed-by-id`)).toBeUndefined();
  });

  it('a JWK method never yields private members; unknown types and undecodable multibase keys yield nothing', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const full = await exportJWK(privateKey);
    expect(full.d).toBeDefined();
    expect(publicJwkOf({ type: 'JsonWebKey', publicKeyJwk: full })).toEqual({ kty: 'OKP', crv: 'Ed25519', x: full.x });
    expect(publicJwkOf({ type: 'EcdsaSecp256k1VerificationKey2019', publicKeyJwk: full })).toBeUndefined();
    expect(publicJwkOf({ type: 'Multikey', publicKeyMultibase: 'z0OIl' })).toBeUndefined();
    // An X25519 (0xec01) key is a key-agreement key, not a signing key.
    expect(publicJwkOf({ type: 'Multikey', publicKeyMultibase: 'z6LSbysY2xFMRpGMhb7tFTLMpeuPRaqaWM1yECx2AtzE3KCc' })).toBeUndefined();
  });
});

describe('status list reading', () => {
  it('statusListIndex: a string of digits or a non-negative integer', () => {
    expect(statusIndexOf({ statusListIndex: '94567' })).toBe(94567);
    expect(statusIndexOf({ statusListIndex: 3 })).toBe(3);
    for (const bad of ['-1', '1e3', ' 7', 1.5, -2, null, '12345678901']) expect(statusIndexOf({ statusListIndex: bad }), String(bad)).toBeUndefined();
  });

  it('bits in the spec order; an encodedList with or without the u prefix; a body inflating past the bound is refused', () => {
    const bits = new Uint8Array(16_384);
    bits[0] = 0b1000_0000;
    bits[1] = 0b0000_0001;
    const encoded = gzipSync(bits).toString('base64url');
    for (const form of [`u${encoded}`, encoded]) {
      const decoded = decodeEncodedList(form)!;
      expect([bitAt(decoded, 0), bitAt(decoded, 1), bitAt(decoded, 15), bitAt(decoded, 131_072)]).toEqual([true, false, true, undefined]);
    }
    expect(decodeEncodedList(`u${gzipSync(new Uint8Array(300_000)).toString('base64url')}`)).toBeUndefined();
    expect(decodeEncodedList('u!!')).toBeUndefined();
  });

  it('caching headers: max-age and Expires (at most 300 s), no-cache and no-store revalidate', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    const of = (headers: Record<string, string>) => freshSeconds(new Headers(headers), now);
    expect(of({ 'cache-control': 'public, max-age=60' })).toBe(60);
    expect(of({ 'cache-control': 'max-age=86400' })).toBe(300);
    expect(of({ expires: 'Sat, 28 Nov 2026 12:01:30 GMT' })).toBe(90);
    expect(of({ 'cache-control': 'no-cache, max-age=60' })).toBe(0);
    expect(of({ 'cache-control': 'no-store' })).toBe(0);
    expect(of({})).toBe(0);
  });

  it('content negotiation by q-value and specificity', () => {
    expect(preferredListForm(undefined)).toBe('enveloped');
    expect(preferredListForm('*/*')).toBe('enveloped');
    expect(preferredListForm('application/json')).toBe('enveloped');
    expect(preferredListForm('application/vc+jwt')).toBe('jws');
    expect(preferredListForm('application/vc+jwt, application/json')).toBe('jws');
    expect(preferredListForm('application/json, */*;q=0.1')).toBe('enveloped');
    expect(preferredListForm('application/*, application/json;q=0')).toBe('jws');
    expect(preferredListForm('*/*, application/json;q=0')).toBe('jws');
    expect(preferredListForm('text/html')).toBeUndefined();
  });
});
