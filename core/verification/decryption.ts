import { aesGcmKey } from '../crypto/aes-gcm.ts';
import { base64ToBytes, hexToBytes } from '../crypto/encoding.ts';
import { MAX_DOCUMENT_DEPTH, withinDepth } from './json-depth.ts';
import { parseJsonObject } from './retrieve.ts';
import { VerificationStop } from './outcome.ts';

/**
 * A stored object is the storage service's encryption envelope (`{ cipherText, iv, tag, type, contentType }`,
 * AES-256-GCM, each part standard base64) when it carries a `cipherText`: one missing its other parts is a
 * malformed envelope, not a credential of another kind.
 */
export const isEncryptionEnvelope = (document: Record<string, unknown>) => 'cipherText' in document;

/**
 * Standard base64 with its padding: whole groups of 4 alphabet characters, the last one ending in at
 * most two `=`. As a length check and a flat character class (no group to repeat over a long cipherText).
 */
const BASE64_CHARACTERS = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (value: string) => value.length % 4 === 0 && BASE64_CHARACTERS.test(value);

const base64Part = (document: Record<string, unknown>, field: string, length?: number): Uint8Array<ArrayBuffer> => {
  const value = document[field];
  if (value === undefined) throw new VerificationStop('ENVELOPE_INVALID', `The encrypted credential is malformed: ${field} is missing`);
  if (typeof value !== 'string' || !isBase64(value)) throw new VerificationStop('ENVELOPE_INVALID', `The encrypted credential is malformed: ${field} is not base64`);
  const bytes = base64ToBytes(value);
  if (length !== undefined && bytes.length !== length) {
    throw new VerificationStop('ENVELOPE_INVALID', `The encrypted credential is malformed: ${field} must be ${length} bytes`);
  }
  return bytes;
};

export interface Decrypted {
  bytes: Uint8Array;
  document: Record<string, unknown>;
}

/**
 * Opens an encryption envelope with the caller's key (64 hexadecimal characters): no key is
 * DECRYPTION_REQUIRED, a malformed envelope ENVELOPE_INVALID, a key or tag that does not open it
 * DECRYPTION_FAILED, a plaintext that is not a JSON object DECRYPTED_NOT_JSON. The runtime's cipher where
 * it has one, else WebCrypto (aes-gcm.ts): the same code runs on edge runtimes.
 */
export const decryptEnvelope = async (envelope: Record<string, unknown>, decryptionKey: string | undefined): Promise<Decrypted> => {
  if (decryptionKey === undefined) throw new VerificationStop('DECRYPTION_REQUIRED', 'The credential is encrypted: a decryptionKey is required');
  if (envelope.type !== 'aes-256-gcm') throw new VerificationStop('ENVELOPE_INVALID', 'The encrypted credential is malformed: type must be aes-256-gcm');
  const cipherText = base64Part(envelope, 'cipherText');
  const iv = base64Part(envelope, 'iv', 12);
  const tag = base64Part(envelope, 'tag', 16);
  const sealed = new Uint8Array(cipherText.length + tag.length);
  sealed.set(cipherText);
  sealed.set(tag, cipherText.length);
  let plaintext: Uint8Array;
  try {
    plaintext = await aesGcmKey(hexToBytes(decryptionKey)).open(iv, sealed);
  } catch {
    throw new VerificationStop('DECRYPTION_FAILED', 'The credential could not be decrypted with this decryptionKey');
  }
  const document = parseJsonObject(plaintext);
  if (!document) throw new VerificationStop('DECRYPTED_NOT_JSON', 'The decrypted credential is not a JSON object');
  if (!withinDepth(document)) throw new VerificationStop('INVALID_RESPONSE', `The decrypted credential nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
  return { bytes: plaintext, document };
};
