import type { Context } from 'hono';
import { badRequest } from '../../core/errors.ts';

/**
 * Query parameters that may repeat, by path: a list filter ORs its values (the library's `type`, `tag`
 * and `excludeTag`, peer §4.2). Every other query parameter of this API is single-valued.
 */
const REPEATABLE: Record<string, ReadonlySet<string>> = {
  '/api/v1/library': new Set(['type', 'tag', 'excludeTag']),
};

/** A repeat of a single-valued query parameter is a 400 naming the parameter. */
export const rejectRepeatedQuery = (c: Context): void => {
  // Only the query string is parsed (no whole-URL parse per request), and only when there is one.
  const url = c.req.url;
  const start = url.indexOf('?');
  if (start !== -1) {
    const end = url.indexOf('#', start);
    const seen = new Set<string>();
    const repeatable = REPEATABLE[c.req.path];
    for (const key of new URLSearchParams(url.slice(start + 1, end === -1 ? undefined : end)).keys()) {
      if (seen.has(key) && !repeatable?.has(key)) throw badRequest(`${key}: query parameter must not be repeated`);
      seen.add(key);
    }
  }
};
