import { createCipheriv, createDecipheriv, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

export interface Ed25519Key {
  publicKeyHex: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** Raw Ed25519 public key: the last 32 bytes of its SPKI DER encoding. */
const rawPublicKey = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).subarray(-32);

export const generateEd25519 = (): Ed25519Key => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, publicKeyHex: rawPublicKey(publicKey).toString('hex') };
};

/**
 * A key-encryption key's public name: the first 8 bytes of SHA-256 over a label and the key, base64url.
 * Stored beside each sealed private key (`vc_service.keys.sealing_key_id`), so the right key opens it.
 */
export const keyEncryptionKeyId = (key: Buffer): string =>
  createHash('sha256').update('vc-service key encryption key id\0').update(key).digest().subarray(0, 8).toString('base64url');

export interface SealedPrivateKey {
  sealed: Buffer;
  /** The id of the KEY_ENCRYPTION_KEY that sealed it. */
  sealingKeyId: string;
}

const sealWith = (keyEncryptionKey: Buffer, key: KeyObject): Buffer => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyEncryptionKey, iv);
  const data = Buffer.concat([cipher.update(key.export({ format: 'der', type: 'pkcs8' })), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]);
};

const openWith = (keyEncryptionKey: Buffer, sealed: Uint8Array): Ed25519Key => {
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', keyEncryptionKey, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  const der = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicKeyHex: rawPublicKey(publicKey).toString('hex') };
};

/**
 * Private keys at rest: PKCS#8 DER sealed with AES-256-GCM under KEY_ENCRYPTION_KEY, stored as
 * 12-byte IV | 16-byte tag | ciphertext, with the sealing key's id beside it. During a rotation the vault
 * also holds KEY_ENCRYPTION_KEY_PREVIOUS: it seals with the current key only and opens with the key named.
 * The plaintext never leaves this module but as a KeyObject.
 */
export const createKeyVault = (keyEncryptionKey: Buffer, previousKeyEncryptionKey?: Buffer) => {
  const currentKeyId = keyEncryptionKeyId(keyEncryptionKey);
  const previousKeyId = previousKeyEncryptionKey ? keyEncryptionKeyId(previousKeyEncryptionKey) : undefined;
  return {
    currentKeyId,
    previousKeyId,
    seal(key: KeyObject): SealedPrivateKey {
      return { sealed: sealWith(keyEncryptionKey, key), sealingKeyId: currentKeyId };
    },
    /**
     * `sealingKeyId` null: sealed before key ids were stored, by the current key or (during a rotation)
     * the previous one. Throws when the named key is not held, or the value does not open.
     */
    open(sealed: Uint8Array, sealingKeyId: string | null): Ed25519Key {
      if (sealingKeyId === currentKeyId) return openWith(keyEncryptionKey, sealed);
      if (sealingKeyId !== null && sealingKeyId === previousKeyId) return openWith(previousKeyEncryptionKey!, sealed);
      if (sealingKeyId !== null) throw new Error('private key sealed under a KEY_ENCRYPTION_KEY this service does not hold');
      try {
        return openWith(keyEncryptionKey, sealed);
      } catch (error) {
        if (!previousKeyEncryptionKey) throw error;
        return openWith(previousKeyEncryptionKey, sealed);
      }
    },
  };
};

export type KeyVault = ReturnType<typeof createKeyVault>;
