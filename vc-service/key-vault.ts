/**
 * Ed25519 signing keys and their sealing at rest, on WebCrypto only, so the same code runs in the Node
 * service and at the edge (vc-service/edge.ts).
 */
export interface Ed25519Key {
  publicKeyHex: string;
  /** Signs with EdDSA (jose takes the CryptoKey as it is). */
  privateKey: CryptoKey;
}

const subtle = globalThis.crypto.subtle;
const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const base64UrlToBytes = (text: string) => Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (c) => c.charCodeAt(0));

/** A new key pair; the private key stays extractable so that it can be sealed. */
export const generateEd25519 = async (): Promise<Ed25519Key> => {
  const pair = (await subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
  const publicKeyHex = hexOf(new Uint8Array(await subtle.exportKey('raw', pair.publicKey)));
  return { privateKey: pair.privateKey, publicKeyHex };
};

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Private keys at rest: PKCS#8 DER sealed with AES-256-GCM under KEY_ENCRYPTION_KEY, stored as
 * 12-byte IV | 16-byte tag | ciphertext (WebCrypto puts the tag after the ciphertext; the stored order is
 * the one the service has always written). The plaintext never leaves this module but as a CryptoKey.
 */
export const createKeyVault = (keyEncryptionKey: Uint8Array) => {
  const aesKey = subtle.importKey('raw', new Uint8Array(keyEncryptionKey), 'AES-GCM', false, ['encrypt', 'decrypt']);
  return {
    async seal(key: CryptoKey): Promise<Uint8Array> {
      const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const pkcs8 = await subtle.exportKey('pkcs8', key);
      const sealed = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, await aesKey, pkcs8));
      const ciphertext = sealed.subarray(0, sealed.length - TAG_BYTES);
      const tag = sealed.subarray(sealed.length - TAG_BYTES);
      const out = new Uint8Array(IV_BYTES + TAG_BYTES + ciphertext.length);
      out.set(iv, 0);
      out.set(tag, IV_BYTES);
      out.set(ciphertext, IV_BYTES + TAG_BYTES);
      return out;
    },
    async open(sealed: Uint8Array): Promise<Ed25519Key> {
      const bytes = new Uint8Array(sealed);
      const iv = bytes.subarray(0, IV_BYTES);
      const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const ciphertext = bytes.subarray(IV_BYTES + TAG_BYTES);
      const joined = new Uint8Array(ciphertext.length + TAG_BYTES);
      joined.set(ciphertext, 0);
      joined.set(tag, ciphertext.length);
      const pkcs8 = await subtle.decrypt({ name: 'AES-GCM', iv }, await aesKey, joined);
      // WebCrypto cannot derive a public key from a private one; its JWK form carries both (`x` is the public key).
      const extractable = await subtle.importKey('pkcs8', pkcs8, 'Ed25519', true, ['sign']);
      const jwk = await subtle.exportKey('jwk', extractable);
      const privateKey = await subtle.importKey('pkcs8', pkcs8, 'Ed25519', false, ['sign']);
      return { privateKey, publicKeyHex: hexOf(base64UrlToBytes(jwk.x!)) };
    },
  };
};

export type KeyVault = ReturnType<typeof createKeyVault>;
