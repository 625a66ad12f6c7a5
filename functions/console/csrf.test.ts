import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/crypto/encoding.ts';
import { csrfTokenFor } from './csrf.ts';

describe('csrfTokenFor', () => {
  it("derives the token from the session's stored digest, the same every time, another for another session", async () => {
    const expected = await sha256Hex('console-csrf:digest-a');
    expect(await csrfTokenFor('digest-a')).toBe(expected);
    expect(await csrfTokenFor('digest-a')).toBe(expected);
    expect(await csrfTokenFor('digest-b')).not.toBe(expected);
  });
});
