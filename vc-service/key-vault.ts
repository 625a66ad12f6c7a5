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
const bytesToBase64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/** A new key pair; the private key stays extractable so that it can be sealed. */
export const generateEd25519 = async (): Promise<Ed25519Key> => {
  const pair = (await subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
  const publicKeyHex = hexOf(new Uint8Array(await subtle.exportKey('raw', pair.publicKey)));
  return { privateKey: pair.privateKey, publicKeyHex };
};

const IV_BYTES = 12;
const TAG_BYTES = 16;
const ID_LABEL = new TextEncoder().encode('vc-service key encryption key id\0');

/**
 * A key-encryption key's public name: the first 8 bytes of SHA-256 over a label and the key, base64url.
 * Stored beside each sealed private key (`vc_service.keys.sealing_key_id`), so the right key opens it.
 */
export const keyEncryptionKeyId = async (key: Uint8Array): Promise<string> => {
  const input = new Uint8Array(ID_LABEL.length + key.length);
  input.set(ID_LABEL, 0);
  input.set(key, ID_LABEL.length);
  return bytesToBase64Url(new Uint8Array(await subtle.digest('SHA-256', input)).subarray(0, 8));
};

export interface SealedPrivateKey {
  sealed: Uint8Array;
  /** The id of the KEY_ENCRYPTION_KEY that sealed it. */
  sealingKeyId: string;
}

/** One KEY_ENCRYPTION_KEY as WebCrypto holds it, with its id. */
interface HeldKey {
  id: string;
  aes: CryptoKey;
}

const holdKey = async (key: Uint8Array): Promise<HeldKey> => ({
  id: await keyEncryptionKeyId(key),
  aes: await subtle.importKey('raw', new Uint8Array(key), 'AES-GCM', false, ['encrypt', 'decrypt']),
});

/** Stored as 12-byte IV | 16-byte tag | ciphertext (WebCrypto puts the tag last; the stored order is the one the service has always written). */
const sealWith = async (held: HeldKey, key: CryptoKey): Promise<Uint8Array> => {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const pkcs8 = await subtle.exportKey('pkcs8', key);
  const sealed = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, held.aes, pkcs8));
  const ciphertext = sealed.subarray(0, sealed.length - TAG_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const out = new Uint8Array(IV_BYTES + TAG_BYTES + ciphertext.length);
  out.set(iv, 0);
  out.set(tag, IV_BYTES);
  out.set(ciphertext, IV_BYTES + TAG_BYTES);
  return out;
};

const openWith = async (held: HeldKey, sealed: Uint8Array): Promise<Ed25519Key> => {
  const bytes = new Uint8Array(sealed);
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const ciphertext = bytes.subarray(IV_BYTES + TAG_BYTES);
  const joined = new Uint8Array(ciphertext.length + TAG_BYTES);
  joined.set(ciphertext, 0);
  joined.set(tag, ciphertext.length);
  const pkcs8 = await subtle.decrypt({ name: 'AES-GCM', iv }, held.aes, joined);
  // WebCrypto cannot derive a public key from a private one; its JWK form carries both (`x` is the public key).
  const extractable = await subtle.importKey('pkcs8', pkcs8, 'Ed25519', true, ['sign']);
  const jwk = await subtle.exportKey('jwk', extractable);
  const privateKey = await subtle.importKey('pkcs8', pkcs8, 'Ed25519', true, ['sign']);
  return { privateKey, publicKeyHex: hexOf(base64UrlToBytes(jwk.x!)) };
};

/**
 * Private keys at rest: PKCS#8 DER sealed with AES-256-GCM under KEY_ENCRYPTION_KEY, with the sealing key's id
 * beside it. During a rotation the vault also holds KEY_ENCRYPTION_KEY_PREVIOUS: it seals with the current key
 * only and opens with the key named. The plaintext never leaves this module but as a CryptoKey (extractable, so
 * that a rotation can seal it again under the new key).
 */
export const createKeyVault = (keyEncryptionKey: Uint8Array, previousKeyEncryptionKey?: Uint8Array) => {
  const current = holdKey(keyEncryptionKey);
  const previous = previousKeyEncryptionKey ? holdKey(previousKeyEncryptionKey) : undefined;
  return {
    /** The ids of the keys held: the current one, and the previous one during a rotation. */
    async keyIds(): Promise<{ current: string; previous: string | undefined }> {
      return { current: (await current).id, previous: (await previous)?.id };
    },
    async seal(key: CryptoKey): Promise<SealedPrivateKey> {
      const held = await current;
      return { sealed: await sealWith(held, key), sealingKeyId: held.id };
    },
    /**
     * `sealingKeyId` null: sealed before key ids were stored, by the current key or (during a rotation)
     * the previous one. Throws when the named key is not held, or the value does not open.
     */
    async open(sealed: Uint8Array, sealingKeyId: string | null): Promise<Ed25519Key> {
      const now = await current;
      const before = await previous;
      if (sealingKeyId === now.id) return openWith(now, sealed);
      if (sealingKeyId !== null && sealingKeyId === before?.id) return openWith(before, sealed);
      if (sealingKeyId !== null) throw new Error('private key sealed under a KEY_ENCRYPTION_KEY this service does not hold');
      try {
        return await openWith(now, sealed);
      } catch (error) {
        if (!before) throw error;
        return openWith(before, sealed);
      }
    },
  };
};

export type KeyVault = ReturnType<typeof createKeyVault>;
