import { z } from '@hono/zod-openapi';
import { badRequest } from '../../core/errors.ts';

const MAX_VERSION = 2_147_483_647;

/** The `If-Version` request header as OpenAPI documents it (handlers read the header itself); the rule is `parseIfVersion`. */
export const ifVersionHeader = z.object({
  'If-Version': z.string().optional().openapi({ param: { in: 'header' }, description: 'The version this write was based on (1..2147483647)', example: '1' }),
});

/**
 * A version-guarded write's `If-Version`: an integer 1..2147483647; surrounding whitespace, leading
 * zeros and a `+` sign are accepted (peer §9). Missing or malformed is 400 INVALID_IF_VERSION.
 */
export const parseIfVersion = (value: string | undefined): number => {
  const match = value === undefined ? null : /^\s*\+?(\d{1,20})\s*$/.exec(value);
  const version = match ? Number(match[1]) : Number.NaN;
  if (!Number.isInteger(version) || version < 1 || version > MAX_VERSION) {
    throw badRequest(`If-Version: ${value === undefined ? 'header is required' : 'must be an integer from 1 to 2147483647'}`, 'INVALID_IF_VERSION');
  }
  return version;
};
