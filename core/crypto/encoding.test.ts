import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256HexWeb } from './encoding.ts';

describe('sha256Hex', () => {
  it('gives the standard digest (FIPS 180-2 vectors), as text and as bytes', async () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(await sha256Hex('abc')).toBe(abc);
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(abc);
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('the runtime hash and WebCrypto agree on texts (UTF-8, not UTF-16), bytes and views into a larger buffer', async () => {
    const buffer = crypto.getRandomValues(new Uint8Array(4096));
    const inputs: (string | Uint8Array)[] = ['', 'é😀 ünïcode', 'x'.repeat(100_000), buffer, buffer.subarray(17, 3000), new Uint8Array(0)];
    for (const input of inputs) expect(await sha256Hex(input)).toBe(await sha256HexWeb(input));
  });

  it('on Node it is the runtime hash, answered without a thread-pool round trip (already settled on the next microtask)', async () => {
    let settled: string | undefined;
    void sha256Hex('abc').then((hex) => (settled = hex));
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(createHash('sha256').update('abc').digest('hex'));
  });
});
