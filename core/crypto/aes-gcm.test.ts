import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesGcmImplementation, aesGcmKey, webAesGcmKey } from './aes-gcm.ts';

const bytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));

describe('AES-GCM keys', () => {
  it('on Node it is the runtime cipher, answered without a thread-pool round trip (already settled on the next microtasks)', async () => {
    expect(aesGcmImplementation()).toBe('runtime');
    const key = aesGcmKey(bytes(32));
    let sealed: Uint8Array | undefined;
    void key.seal(bytes(12), new TextEncoder().encode('abc')).then((value) => (sealed = value));
    await Promise.resolve();
    await Promise.resolve();
    expect(sealed?.length).toBe(3 + 16);
  });

  it('the runtime cipher and WebCrypto open what the other sealed, for every key size, empty and large texts and views into a larger buffer', async () => {
    for (const size of [16, 24, 32]) {
      const raw = bytes(size);
      const [runtime, web] = [aesGcmKey(raw), webAesGcmKey(raw)];
      const buffer = bytes(65_536);
      for (const plaintext of [new Uint8Array(0), new TextEncoder().encode('é😀 ünïcode'), buffer, buffer.subarray(13, 5000)]) {
        const iv = bytes(12);
        const [byRuntime, byWeb] = [await runtime.seal(iv, plaintext), await web.seal(iv, plaintext)];
        expect(byRuntime).toEqual(byWeb);
        expect(await web.open(iv, byRuntime)).toEqual(new Uint8Array(plaintext));
        expect(await runtime.open(iv, byWeb)).toEqual(new Uint8Array(plaintext));
      }
    }
  });

  it('is the standard cipher: ciphertext then the 16-byte tag, as node:crypto computes them', async () => {
    const [raw, iv, plaintext] = [bytes(32), bytes(12), bytes(100)];
    const cipher = createCipheriv('aes-256-gcm', raw, iv);
    const expected = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    expect(Buffer.from(await aesGcmKey(raw).seal(iv, plaintext))).toEqual(expected);
  });

  it('refuses a tampered body or tag, another key or IV, a value shorter than its tag, and a key of another size, on both implementations', async () => {
    const [raw, iv] = [bytes(32), bytes(12)];
    for (const make of [aesGcmKey, webAesGcmKey]) {
      const key = make(raw);
      const sealed = await key.seal(iv, new TextEncoder().encode('a secret'));
      const flipped = (at: number) => sealed.map((b, i) => (i === at ? b ^ 1 : b));
      await expect(key.open(iv, flipped(0))).rejects.toThrow();
      await expect(key.open(iv, flipped(sealed.length - 1))).rejects.toThrow();
      await expect(make(bytes(32)).open(iv, sealed)).rejects.toThrow();
      await expect(key.open(bytes(12), sealed)).rejects.toThrow();
      await expect(key.open(iv, sealed.subarray(0, 10))).rejects.toThrow();
      expect(() => make(bytes(31))).toThrow(/16, 24 or 32 bytes/);
    }
  });
});
