import { describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES } from '../net/fetcher.ts';
import { MAX_BODY_BYTES as VC_SERVICE_MAX_BODY_BYTES } from '../../vc-service/app.ts';
import { assertPayloadSize, MAX_CREDENTIAL_PAYLOAD_BYTES, payloadBytes } from './payload-limit.ts';

/** A payload of exactly `bytes` as JSON (the padding is ASCII, one byte a character). */
const payloadOf = (bytes: number) => {
  const empty = payloadBytes({ name: '' });
  return { name: 'x'.repeat(bytes - empty) };
};

describe('the maximum credential payload agrees with every cap after it', () => {
  it('the sign request of the largest payload fits the VC service request cap', () => {
    const entry = { id: 'https://vc.example.com/status/revocation/abcdefgh#131071', type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: 131071, statusListCredential: 'https://vc.example.com/status/revocation/abcdefgh' };
    const request = { credential: { ...payloadOf(MAX_CREDENTIAL_PAYLOAD_BYTES), credentialStatus: [entry, { ...entry, statusPurpose: 'suspension' }] }, options: { proofFormat: 'EnvelopingProofJose' } };
    expect(payloadBytes(request)).toBeLessThan(VC_SERVICE_MAX_BODY_BYTES);
  });

  it('the signed answer of the largest payload (base64url, 4/3 of it, plus header, signature and envelope) fits the response cap', () => {
    const signedPayload = MAX_CREDENTIAL_PAYLOAD_BYTES + 4096; // status entries and what the signer adds
    const jws = 2048 + Math.ceil((signedPayload * 4) / 3) + 128;
    const answer = jws + 1024; // the enveloping JSON and its @context
    expect(answer).toBeLessThan(MAX_RESPONSE_BYTES);
  });

  it('413 CREDENTIAL_PAYLOAD_TOO_LARGE names the field, from one byte over', () => {
    expect(() => assertPayloadSize(payloadOf(MAX_CREDENTIAL_PAYLOAD_BYTES), 'credentialPayload')).not.toThrow();
    expect(() => assertPayloadSize(payloadOf(MAX_CREDENTIAL_PAYLOAD_BYTES + 1), 'items[2].credentialPayload')).toThrow(
      expect.objectContaining({ status: 413, code: 'CREDENTIAL_PAYLOAD_TOO_LARGE', message: expect.stringMatching(/^items\[2\]\.credentialPayload: must not exceed 524288 bytes/) }),
    );
    // Multi-byte characters count as bytes, not characters.
    expect(() => assertPayloadSize({ name: 'é'.repeat(MAX_CREDENTIAL_PAYLOAD_BYTES / 2) }, 'credentialPayload')).toThrow(/must not exceed/);
  });
});
