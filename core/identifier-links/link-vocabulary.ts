/** The UNTP access roles a published link may carry. */
export const ACCESS_ROLES = ['Anonymous', 'Customer', 'Regulator', 'Recycler', 'Auditor', 'Owner'].map((r) => `untp:accessRole#${r}`) as [string, ...string[]];

const PRIVATE_USE = /^x(-[A-Za-z0-9]{1,8})+$/i;
/** RFC 5646 §2.2.8: the grandfathered tags, well-formed by enumeration (Intl refuses most of them). */
const GRANDFATHERED = new Set(
  [
    'en-GB-oed', 'i-ami', 'i-bnn', 'i-default', 'i-enochian', 'i-hak', 'i-klingon', 'i-lux', 'i-mingo', 'i-navajo',
    'i-pwn', 'i-tao', 'i-tay', 'i-tsu', 'sgn-BE-FR', 'sgn-BE-NL', 'sgn-CH-DE', 'art-lojban', 'cel-gaulish',
    'no-bok', 'no-nyn', 'zh-guoyu', 'zh-hakka', 'zh-min', 'zh-min-nan', 'zh-xiang',
  ].map((t) => t.toLowerCase()),
);

/**
 * A well-formed BCP 47 tag: what the platform's Intl canonicaliser accepts, plus private-use tags
 * (x-default) and the grandfathered tags.
 */
export const isLanguageTag = (tag: string) => {
  if (PRIVATE_USE.test(tag) || GRANDFATHERED.has(tag.toLowerCase())) return true;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
};
