import { sha256Hex } from '../crypto/encoding.ts';
import { badRequest } from '../errors.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MAX_KEY_CHARS = 255;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The `Idempotency-Key` header: absent is undefined; present it must be printable ASCII, not blank,
 * at most 255 characters after trimming (400 naming the header otherwise). Returns it trimmed.
 */
export const readIdempotencyKey = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined;
  const key = raw.trim();
  if (key === '') throw badRequest(`${IDEMPOTENCY_HEADER}: must not be blank`);
  if (key.length > MAX_KEY_CHARS) throw badRequest(`${IDEMPOTENCY_HEADER}: must be at most ${MAX_KEY_CHARS} characters`);
  if (!PRINTABLE_ASCII.test(key)) throw badRequest(`${IDEMPOTENCY_HEADER}: must be printable ASCII`);
  return key;
};

/** JSON with object keys sorted at every level, so the same body in another layout or key order digests the same. */
const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
};

/** The digest a claim keeps of its request body (the parsed JSON, canonicalised). */
export const bodyDigest = (body: unknown): Promise<string> => sha256Hex(canonicalJson(body));
