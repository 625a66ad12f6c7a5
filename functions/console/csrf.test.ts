import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/crypto/encoding.ts';
import { csrfTokenFor } from './csrf.ts';

describe('csrfTokenFor', () => {
  it('derives the token from the session cookie, the same when remembered, another for another session', async () => {
    const expected = await sha256Hex('console-csrf:session-a');
    expect(await csrfTokenFor('session-a')).toBe(expected);
    expect(await csrfTokenFor('session-a')).toBe(expected);
    expect(await csrfTokenFor('session-b')).not.toBe(expected);
  });

  it('still derives the right token for a session forgotten after a thousand others', async () => {
    const first = await csrfTokenFor('session-first');
    for (let i = 0; i < 1001; i++) await csrfTokenFor(`session-${i}`);
    expect(await csrfTokenFor('session-first')).toBe(first);
  });
});
