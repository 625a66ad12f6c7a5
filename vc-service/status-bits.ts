import { gunzipSync } from 'node:zlib';

/** Longest list read: W3C lists of this service are at most 16 × 131,072 entries; others get the same bound. */
export const MAX_LIST_BYTES = 262_144;

/** A status entry's `statusListIndex`: W3C writes a string of digits; VCkit and older issuers a number. */
export const statusIndexOf = (entry: Record<string, unknown>): number | undefined => {
  const raw = entry.statusListIndex;
  const index = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : raw;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : undefined;
};

/** The bit at `index` (index 0 is the first byte's most significant bit: the spec's order), or undefined past the end. */
export const bitAt = (bits: Uint8Array, index: number): boolean | undefined =>
  index < bits.length * 8 ? ((bits[index >> 3]! >> (7 - (index & 7))) & 1) === 1 : undefined;

/**
 * The bits of an `encodedList` (multibase base64url `u…` of the GZIP-compressed bitstring; the prefix
 * is optional for older issuers), inflated with a bound so a small body cannot expand without limit.
 * Undefined when it is not one.
 */
export const decodeEncodedList = (encoded: unknown): Uint8Array | undefined => {
  if (typeof encoded !== 'string' || encoded.length === 0) return undefined;
  const text = encoded.startsWith('u') ? encoded.slice(1) : encoded;
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    return new Uint8Array(gunzipSync(Buffer.from(text, 'base64url'), { maxOutputLength: MAX_LIST_BYTES }));
  } catch {
    return undefined;
  }
};
