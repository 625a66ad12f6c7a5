import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { parseIfVersion } from './if-version.ts';

describe('If-Version', () => {
  it('accepts 1..2147483647 with whitespace, leading zeros and a plus sign', () => {
    expect(parseIfVersion('1')).toBe(1);
    expect(parseIfVersion(' 007 ')).toBe(7);
    expect(parseIfVersion('+12')).toBe(12);
    expect(parseIfVersion('2147483647')).toBe(2147483647);
  });

  it('refuses missing, zero, negative, fractional, too large and non-numeric values with 400 INVALID_IF_VERSION', () => {
    for (const raw of [undefined, '', '0', '-1', '1.5', '2147483648', '1e3', 'abc', '++1', '0x10', '99999999999999999999999']) {
      let caught: unknown;
      try {
        parseIfVersion(raw);
      } catch (error) {
        caught = error;
      }
      expect(caught, String(raw)).toBeInstanceOf(ApiError);
      expect(caught).toMatchObject({ status: 400, code: 'INVALID_IF_VERSION', message: expect.stringMatching(/^If-Version: /) });
    }
  });
});
