import { encodeBase64 as encodeBuffer } from 'hono/utils/encode';
import { bytesToHex } from '../core/crypto/encoding.ts';

/** What a private upload stores: enough for a client holding only the key to decrypt it. */
export interface EncryptedEnvelope {
  cipherText: string;
  iv: string;
  tag: string;
  type: 'aes-256-gcm';
  contentType: string;
}

const TAG_BYTES = 16;

/** Standard base64 with padding, as the upstream envelope uses. */
export const encodeBase64 = (bytes: Uint8Array): string =>
  encodeBuffer(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer);

/**
 * AES-256-GCM under a fresh 32-byte key (returned once as 64 hex characters and never kept), a
 * 12-byte IV and a 16-byte tag, each base64 in the envelope. The plaintext is UTF-8 text: the JSON
 * document, or a file's bytes in base64.
 */
export const encryptToEnvelope = async (
  plaintext: string,
  contentType: string,
): Promise<{ envelope: EncryptedEnvelope; decryptionKey: string }> => {
  const keyBytes = crypto.getRandomValues(new Uint8Array(32));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await crypto.subtle.importKey('raw', keyBytes, 'AES-GCM', false, ['encrypt']);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, tagLength: TAG_BYTES * 8 }, key, new TextEncoder().encode(plaintext)),
  );
  const split = sealed.length - TAG_BYTES;
  return {
    envelope: {
      cipherText: encodeBase64(sealed.subarray(0, split)),
      iv: encodeBase64(iv),
      tag: encodeBase64(sealed.subarray(split)),
      type: 'aes-256-gcm',
      contentType,
    },
    decryptionKey: bytesToHex(keyBytes),
  };
};

