import { TtlCache } from '../cache/ttl-cache.ts';
import { base64UrlToBytes, bytesToBase64Url, hexToBytes } from './encoding.ts';

const FORMAT = 'v1';
/**
 * Opened service configs are kept this long, at most this many per box: a sealed text always opens to the
 * same value (a changed config is sealed anew, with a fresh IV), so nothing kept can go stale.
 */
const OPENED_CONFIG_MS = 10 * 60_000;
const OPENED_CONFIGS_MAX = 256;

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
};

/**
 * AES-256-GCM encryption of secrets at rest (service configs, refresh tokens) with
 * DATA_ENCRYPTION_KEY. Output: `v1.<iv>.<ciphertext+tag>` in base64url; a fresh 12-byte IV per value.
 * The CryptoKey is imported once per box, not per call.
 */
export class SecretBox {
  readonly #key: Promise<CryptoKey>;
  readonly #openedConfigs = new TtlCache<unknown>(OPENED_CONFIG_MS, OPENED_CONFIGS_MAX);

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

  /**
   * A sealed service config, opened once and then remembered (frozen: callers share it) by its sealed
   * text, so issuing or verifying through an instance does not decrypt its config on every request.
   */
  async openConfig<T = unknown>(sealed: string): Promise<Readonly<T>> {
    const known = this.#openedConfigs.get(sealed);
    if (known !== undefined) return known as Readonly<T>;
    const opened = deepFreeze(await this.decryptJson<T>(sealed));
    this.#openedConfigs.set(sealed, opened);
    return opened;
  }
}
