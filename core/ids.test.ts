import { describe, expect, it } from 'vitest';
import { createId } from './ids.ts';

describe('createId', () => {
  it('makes cuid2-shaped ids: a lowercase letter, then 23 lowercase letters or digits', () => {
    for (let i = 0; i < 1000; i += 1) expect(createId()).toMatch(/^[a-z][a-z0-9]{23}$/);
  });

  it('never repeats across many ids', () => {
    const ids = new Set(Array.from({ length: 20_000 }, createId));
    expect(ids.size).toBe(20_000);
  });

  it('uses every character of its alphabet in every position after the first', () => {
    const seen = Array.from({ length: 23 }, () => new Set<string>());
    for (let i = 0; i < 2000; i += 1) [...createId().slice(1)].forEach((char, position) => seen[position]!.add(char));
    for (const chars of seen) expect(chars.size).toBe(36);
  });
});
