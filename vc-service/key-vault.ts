import { createCipheriv, createDecipheriv, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

export interface Ed25519Key {
  publicKeyHex: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** Ed25519 raw public key: the last 32 bytes of its SPKI DER encoding. */
const rawPublicKey = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).subarray(-32);

export const generateEd25519 = (): Ed25519Key => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, publicKeyHex: rawPublicKey(publicKey).toString('hex') };
};

/**
 * Private keys at rest: PKCS#8 DER sealed with AES-256-GCM under KEY_ENCRYPTION_KEY, stored as
 * 12-byte IV | 16-byte tag | ciphertext. The plaintext never leaves this module but as a KeyObject.
 */
export const createKeyVault = (keyEncryptionKey: Buffer) => ({
  seal(key: KeyObject): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', keyEncryptionKey, iv);
    const data = Buffer.concat([cipher.update(key.export({ format: 'der', type: 'pkcs8' })), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]);
  },
  open(sealed: Uint8Array): Ed25519Key {
    const bytes = Buffer.from(sealed);
    const decipher = createDecipheriv('aes-256-gcm', keyEncryptionKey, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const der = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
    const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    const publicKey = createPublicKey(privateKey);
    return { privateKey, publicKey, publicKeyHex: rawPublicKey(publicKey).toString('hex') };
  },
});

export type KeyVault = ReturnType<typeof createKeyVault>;
