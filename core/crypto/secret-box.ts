import { TtlCache } from '../cache/ttl-cache.ts';
import { aesGcmKey, type AesGcmKey } from './aes-gcm.ts';
import { base64UrlToBytes, bytesToBase64Url, hexToBytes } from './encoding.ts';

/** Sealed before key ids existed: `v1.<iv>.<body>`. Still opened (by the current key, then the previous). */
const LEGACY_FORMAT = 'v1';
/** `v2.<key id>.<iv>.<body>`: the key id names the key, so opening never tries keys in turn. */
const FORMAT = 'v2';
/** Separates the key-id digest from any other use of the key's bytes. */
const KEY_ID_LABEL = new TextEncoder().encode('credential-support-service data key id\0');
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

interface SealingKey {
  id: string;
  key: AesGcmKey;
}

/**
 * A key's public name: the first 8 bytes of SHA-256 over a label and the key, base64url. Naming a 256-bit
 * key by a digest reveals nothing usable about it; it lets an audit count values per key.
 */
export const dataKeyId = async (keyHex: string): Promise<string> => {
  const key = hexToBytes(keyHex);
  const input = new Uint8Array(KEY_ID_LABEL.length + key.length);
  input.set(KEY_ID_LABEL);
  input.set(key, KEY_ID_LABEL.length);
  return bytesToBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', input)).subarray(0, 8));
};

const importSealingKey = async (keyHex: string): Promise<SealingKey> => ({
  id: await dataKeyId(keyHex),
  key: aesGcmKey(hexToBytes(keyHex)),
});

/** The key a sealed value names: its key id, `legacy` for a value sealed before key ids, `unreadable` for anything else. */
export const sealedKeyId = (sealed: string): string => {
  const parts = sealed.split('.');
  if (parts[0] === FORMAT && parts.length === 4 && parts[1]) return parts[1];
  if (parts[0] === LEGACY_FORMAT && parts.length === 3) return 'legacy';
  return 'unreadable';
};

/**
 * AES-256-GCM encryption of secrets at rest (service configs, refresh tokens, storage keys, batch
 * requests) with DATA_ENCRYPTION_KEY. Output: `v2.<key id>.<iv>.<ciphertext+tag>` in base64url; a fresh
 * 12-byte IV per value. During a key rotation the box also holds DATA_ENCRYPTION_KEY_PREVIOUS: it seals
 * only with the current key and opens a value with the key its id names.
 * The keys are made once per box, not per call (aes-gcm.ts: the runtime's cipher where it has one, else WebCrypto).
 */
export class SecretBox {
  readonly #current: Promise<SealingKey>;
  readonly #previous: Promise<SealingKey> | undefined;
  readonly #openedConfigs = new TtlCache<unknown>(OPENED_CONFIG_MS, OPENED_CONFIGS_MAX);

  constructor(keyHex: string, previousKeyHex?: string) {
    this.#current = importSealingKey(keyHex);
    this.#previous = previousKeyHex ? importSealingKey(previousKeyHex) : undefined;
  }

  /** The id of the key new values are sealed with. */
  async currentKeyId(): Promise<string> {
    return (await this.#current).id;
  }

  /** The id of the previous key, when the box holds one (a rotation is under way). */
  async previousKeyId(): Promise<string | undefined> {
    return (await this.#previous)?.id;
  }

  async encrypt(plaintext: string): Promise<string> {
    const { id, key } = await this.#current;
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await key.seal(iv, new TextEncoder().encode(plaintext));
    return `${FORMAT}.${id}.${bytesToBase64Url(iv)}.${bytesToBase64Url(sealed)}`;
  }

  /** Throws when the value was sealed with a key this box does not hold, or was tampered with. */
  async decrypt(sealed: string): Promise<string> {
    const parts = sealed.split('.');
    if (parts[0] === FORMAT && parts.length === 4) {
      const key = await this.#keyNamed(parts[1]!);
      if (!key) throw new Error('Sealed under a key this process does not hold');
      return this.#open(key, parts[2]!, parts[3]!);
    }
    if (parts[0] === LEGACY_FORMAT && parts.length === 3 && parts[1] && parts[2]) {
      const [iv, body] = [parts[1], parts[2]];
      const previous = await this.#previous;
      try {
        return await this.#open(await this.#current, iv, body);
      } catch (error) {
        if (!previous) throw error;
        return this.#open(previous, iv, body);
      }
    }
    throw new Error('Unrecognised ciphertext format');
  }

  async #keyNamed(id: string): Promise<SealingKey | undefined> {
    const current = await this.#current;
    if (current.id === id) return current;
    const previous = await this.#previous;
    return previous?.id === id ? previous : undefined;
  }

  async #open({ key }: SealingKey, iv: string, body: string): Promise<string> {
    return new TextDecoder().decode(await key.open(base64UrlToBytes(iv), base64UrlToBytes(body)));
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
