/**
 * Opaque record id in the shape of a cuid2 (a lowercase letter, then 23 lowercase letters or digits:
 * about 119 random bits) from the platform's CSPRNG. Clients must never parse it. Built here rather than
 * with the cuid2 package, which pulls a big-number library and SHA-3 into every edge bundle.
 */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 24;

/** The first `alphabetSize` characters, uniformly: bytes that would bias `byte % alphabetSize` are drawn again. */
const randomChars = (count: number, alphabetSize: number): string => {
  const unbiasedBelow = Math.floor(256 / alphabetSize) * alphabetSize;
  let out = '';
  while (out.length < count) {
    for (const byte of crypto.getRandomValues(new Uint8Array(count * 2))) {
      if (byte >= unbiasedBelow) continue;
      out += ALPHABET[byte % alphabetSize];
      if (out.length === count) break;
    }
  }
  return out;
};

export const createId = (): string => randomChars(1, 26) + randomChars(LENGTH - 1, 36);
