import { base64UrlToBytes, bytesToBase64Url, hexToBytes } from './encoding.ts';

const FORMAT = 'v1';

/**
 * AES-256-GCM encryption of secrets at rest (service configs, refresh tokens) with
 * DATA_ENCRYPTION_KEY. Output: `v1.<iv>.<ciphertext+tag>` in base64url; a fresh 12-byte IV per value.
 * The CryptoKey is imported once per box, not per call.
 */
export class SecretBox {
  readonly #key: Promise<CryptoKey>;

  constructor(keyHex: string) {
    this.#key = crypto.subtle.importKey('raw', hexToBytes(keyHex), 'AES-GCM', false, ['encrypt', 'decrypt']);
  }

  async encrypt(plaintext: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv },
      await this.#key,
      new TextEncoder().encode(plaintext),
    );
    return `${FORMAT}.${bytesToBase64Url(iv)}.${bytesToBase64Url(new Uint8Array(sealed))}`;
  }

  /** Throws when the value was sealed with another key or was tampered with. */
  async decrypt(sealed: string): Promise<string> {
    const [format, iv, body] = sealed.split('.');
    if (format !== FORMAT || !iv || !body) throw new Error('Unrecognised ciphertext format');
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: base64UrlToBytes(iv) },
      await this.#key,
      base64UrlToBytes(body),
    );
    return new TextDecoder().decode(plain);
  }

  async encryptJson(value: unknown): Promise<string> {
    return this.encrypt(JSON.stringify(value));
  }

  async decryptJson<T = unknown>(sealed: string): Promise<T> {
    return JSON.parse(await this.decrypt(sealed)) as T;
  }
}
