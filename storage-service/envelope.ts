import { createCipheriv, randomBytes } from 'node:crypto';

/** What a private upload stores: enough for a client holding only the key to decrypt it. */
export interface EncryptedEnvelope {
  cipherText: string;
  iv: string;
  tag: string;
  type: 'aes-256-gcm';
  contentType: string;
}

/**
 * AES-256-GCM under a fresh 32-byte key (returned once as 64 hex characters and never kept), a
 * 12-byte IV and a 16-byte tag, each standard base64 (with padding) in the envelope. The plaintext
 * is UTF-8 text: the JSON document, or a file's bytes in base64.
 */
export const encryptToEnvelope = (plaintext: string, contentType: string): { envelope: EncryptedEnvelope; decryptionKey: string } => {
  const key = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    envelope: {
      cipherText: sealed.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      type: 'aes-256-gcm',
      contentType,
    },
    decryptionKey: key.toString('hex'),
  };
};
