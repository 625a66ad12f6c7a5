import { describe, expect, it } from 'vitest';
import { isLanguageTag } from './schemas.ts';

describe('hreflang tags (RFC 5646 well-formedness)', () => {
  it.each(['en', 'en-AU', 'es-419', 'zh-Hant-TW', 'sr-Latn-RS', 'x-default', 'i-klingon', 'en-GB-oed', 'zh-min-nan', 'de-CH-1996'])('%s is well-formed', (tag) => {
    expect(isLanguageTag(tag)).toBe(true);
  });
  it.each(['', 'en_AU', 'e', 'toolongtag1', 'en-', '-en', '123', 'en--AU', 'i-notgrandfathered'])('%j is not', (tag) => {
    expect(isLanguageTag(tag)).toBe(false);
  });
});
