import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../crypto/encoding.ts';
import { bodyDigest } from './idempotency-key.ts';

describe('bodyDigest', () => {
  it('digests the canonical text: keys sorted at every level (stepped and below), undefined members left out, arrays in order', async () => {
    const body = { items: [{ b: [2, 1], a: { z: 1, y: { q: true, p: null } } }, { c: 'é"' }], meta: undefined, 'Z': 0, a: 1 };
    const canonical = '{"Z":0,"a":1,"items":[{"a":{"y":{"p":null,"q":true},"z":1},"b":[2,1]},{"c":"é\\""}]}';
    expect(await bodyDigest(body)).toBe(await sha256Hex(canonical));
  });

  it('the same body in another key order digests the same; another value does not', async () => {
    const one = await bodyDigest({ a: 1, items: [{ x: 1, y: 2 }] });
    expect(await bodyDigest({ items: [{ y: 2, x: 1 }], a: 1 })).toBe(one);
    expect(await bodyDigest({ items: [{ y: 3, x: 1 }], a: 1 })).not.toBe(one);
  });
});
