/**
 * Where the browser goes after sign-in: only a path on this site. Browsers drop tabs and newlines
 * from URLs and read `\` as `/`, so `/\t/evil.example` and `/\evil.example` become `//evil.example`
 * (another origin); hence only printable ASCII (percent-encode the rest), no backslash, no `//` start,
 * and the resolved URL must stay on our origin. Anything else returns to `/`.
 */
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const BASE = 'http://return-path.invalid';

export const safeReturnPath = (value: string | undefined): string => {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return '/';
  if (!PRINTABLE_ASCII.test(value) || value.includes('\\')) return '/';
  return new URL(value, BASE).origin === BASE ? value : '/';
};
