import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.ts';

describe('safeReturnPath', () => {
  it.each(['/', '/app/credentials?tab=1#x', '/a/b%20c', '/%2F%2Fevil.example'])('keeps %s', (path) =>
    expect(safeReturnPath(path)).toBe(path),
  );

  it.each([
    ['tab then slash', '/\t/evil.example'],
    ['newline then slash', '/\n/evil.example'],
    ['carriage return', '/\r/evil.example'],
    ['protocol-relative', '//x'],
    ['backslash', '/\\x'],
    ['backslash later', '/a\\..\\\\evil.example'],
    ['NUL', '/a\u0000b'],
    ['DEL', '/a\u007fb'],
    ['escape', '/\u001b[31m'],
    ['space', '/ /evil.example'],
    ['non-ASCII (not encodable in the flow cookie)', '/é'],
    ['absolute URL', 'https://evil.example/'],
    ['relative path', 'evil.example'],
    ['missing', undefined],
  ])('refuses %s', (_, value) => expect(safeReturnPath(value)).toBe('/'));
});
