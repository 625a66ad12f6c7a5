/**
 * AES-GCM with a raw key of 16, 24 or 32 bytes; sealed output laid out as WebCrypto lays it out (the ciphertext,
 * then the 16-byte tag), so either implementation opens what the other sealed. Where the runtime offers its own
 * cipher (`process.getBuiltinModule('node:crypto')`: Node 22.3 and later; workerd's only if it passes a round trip
 * at first use) a seal or an open runs in the calling thread; on Node, WebCrypto's encrypt and decrypt are each a
 * round trip through the thread pool, which costs more CPU than the cipher itself and two turns of the event loop.
 * Any other runtime gets WebCrypto.
 */
export interface AesGcmKey {
  seal(iv: Uint8Array, plaintext: Uint8Array): Promise<Uint8Array>;
  /** Throws when the key or the tag does not open it. */
  open(iv: Uint8Array, sealed: Uint8Array): Promise<Uint8Array>;
}

const TAG_BYTES = 16;

interface NodeCipher {
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
}
interface NodeCrypto {
  createSecretKey(key: Uint8Array): unknown;
  createCipheriv(algorithm: string, key: unknown, iv: Uint8Array): NodeCipher & { getAuthTag(): Uint8Array };
  createDecipheriv(algorithm: string, key: unknown, iv: Uint8Array): NodeCipher & { setAuthTag(tag: Uint8Array): void };
}

const joined = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const algorithmOf = (raw: Uint8Array) => {
  if (![16, 24, 32].includes(raw.length)) throw new Error('An AES key is 16, 24 or 32 bytes');
  return `aes-${raw.length * 8}-gcm`;
};

const sealWith = (node: NodeCrypto, algorithm: string, key: unknown, iv: Uint8Array, plaintext: Uint8Array) => {
  const cipher = node.createCipheriv(algorithm, key, iv);
  return joined(cipher.update(plaintext), cipher.final(), cipher.getAuthTag());
};

const openWith = (node: NodeCrypto, algorithm: string, key: unknown, iv: Uint8Array, sealed: Uint8Array) => {
  if (sealed.length < TAG_BYTES) throw new Error('The sealed value is shorter than its tag');
  const decipher = node.createDecipheriv(algorithm, key, iv);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return joined(decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final());
};

const nodeKey = (node: NodeCrypto, raw: Uint8Array): AesGcmKey => {
  const algorithm = algorithmOf(raw);
  const key = node.createSecretKey(raw);
  return {
    seal: async (iv, plaintext) => sealWith(node, algorithm, key, iv, plaintext),
    open: async (iv, sealed) => openWith(node, algorithm, key, iv, sealed),
  };
};

/** The WebCrypto implementation (every runtime has it): the key imported once, not extractable. */
export const webAesGcmKey = (raw: Uint8Array): AesGcmKey => {
  algorithmOf(raw);
  const key = crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']);
  key.catch(() => {});
  return {
    seal: async (iv, plaintext) => new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer> }, await key, plaintext as Uint8Array<ArrayBuffer>)),
    open: async (iv, sealed) => new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer> }, await key, sealed as Uint8Array<ArrayBuffer>)),
  };
};

/** The runtime's cipher, if it has one that round-trips a known value; looked up once, at first use. */
let runtime: NodeCrypto | null | undefined;
const runtimeCrypto = (): NodeCrypto | null => {
  if (runtime !== undefined) return runtime;
  runtime = null;
  try {
    const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
    if (typeof node?.createCipheriv !== 'function' || typeof node.createDecipheriv !== 'function' || typeof node.createSecretKey !== 'function') return runtime;
    const key = node.createSecretKey(new Uint8Array(32).fill(7));
    const iv = new Uint8Array(12).fill(1);
    const opened = openWith(node, 'aes-256-gcm', key, iv, sealWith(node, 'aes-256-gcm', key, iv, new TextEncoder().encode('aes-gcm round trip')));
    if (new TextDecoder().decode(opened) === 'aes-gcm round trip') runtime = node;
  } catch {
    runtime = null;
  }
  return runtime;
};

/** Which implementation `aesGcmKey` gives on this runtime. */
export const aesGcmImplementation = (): 'runtime' | 'webcrypto' => (runtimeCrypto() ? 'runtime' : 'webcrypto');

/** A key for sealing and opening: the runtime's cipher where there is one, else WebCrypto. */
export const aesGcmKey = (raw: Uint8Array): AesGcmKey => {
  const node = runtimeCrypto();
  return node ? nodeKey(node, raw) : webAesGcmKey(raw);
};
