import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/crypto/encoding.ts';
import { csrfTokenFor } from './csrf.ts';

describe('csrfTokenFor', () => {
  it("derives the token from the session's stored digest, the same when remembered, another for another session", async () => {
    const expected = await sha256Hex('console-csrf:digest-a');
    expect(await csrfTokenFor('digest-a')).toBe(expected);
    expect(await csrfTokenFor('digest-a')).toBe(expected);
    expect(await csrfTokenFor('digest-b')).not.toBe(expected);
  });

  it('still derives the right token for a session forgotten after a thousand others', async () => {
    const first = await csrfTokenFor('digest-first');
    for (let i = 0; i < 1001; i++) await csrfTokenFor(`digest-${i}`);
    expect(await csrfTokenFor('digest-first')).toBe(first);
  });
});
