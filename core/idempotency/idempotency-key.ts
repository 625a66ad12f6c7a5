import { sha256Hex } from '../crypto/encoding.ts';
import { badRequest } from '../errors.ts';
import { stepBudget, type StepBudget } from '../limits/bounded-steps.ts';

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

/** An object's members as canonical JSON writes them: undefined ones left out, keys in code-unit order. */
const sortedMembers = (value: object) =>
  Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** JSON with object keys sorted at every level, so the same body in another layout or key order digests the same. */
const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return `{${sortedMembers(value).map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  return JSON.stringify(value);
};

/** Characters of canonical JSON written between two yields to the event loop. */
const CHARS_PER_STEP = 256 * 1024;
/** Levels written member by member (a batch's root and its `items`); below them each member is written at once. */
const STEPPED_LEVELS = 2;

/** `canonicalJson` in bounded steps (the same text): a large body (a 500-item batch) never holds the event loop for the whole of it. */
const canonicalJsonInSteps = async (value: unknown, budget: StepBudget, level = 0): Promise<string> => {
  if (level >= STEPPED_LEVELS || value === null || typeof value !== 'object') {
    const text = canonicalJson(value);
    await budget.spend(text?.length ?? 0);
    return text;
  }
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) parts.push(await canonicalJsonInSteps(item, budget, level + 1));
    return `[${parts.join(',')}]`;
  }
  const parts: string[] = [];
  for (const [k, v] of sortedMembers(value)) parts.push(`${JSON.stringify(k)}:${await canonicalJsonInSteps(v, budget, level + 1)}`);
  return `{${parts.join(',')}}`;
};

/** The digest a claim keeps of its request body (the parsed JSON, canonicalised, in bounded steps). */
export const bodyDigest = async (body: unknown): Promise<string> => sha256Hex(await canonicalJsonInSteps(body, stepBudget(CHARS_PER_STEP)));
