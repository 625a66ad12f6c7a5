import { ApiError } from '../errors.ts';

const MAX_VERSION = 2_147_483_647;

/**
 * The `If-Version` header of a version-guarded write (peer contract §9): an integer from 1 to
 * 2147483647; surrounding whitespace, leading zeros and a `+` sign are accepted. Missing or anything
 * else is a 400 `INVALID_IF_VERSION`.
 */
export const parseIfVersion = (raw: string | undefined): number => {
  const text = raw?.trim() ?? '';
  const digits = /^\+?(\d{1,32})$/.exec(text)?.[1];
  const value = digits === undefined ? Number.NaN : Number(digits);
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_VERSION) {
    throw new ApiError(400, `If-Version: ${raw === undefined ? 'is required' : 'must be an integer from 1 to 2147483647'}`, 'INVALID_IF_VERSION');
  }
  return value;
};
