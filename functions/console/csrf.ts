import type { MiddlewareHandler } from 'hono';
import { sha256Hex } from '../../core/crypto/encoding.ts';
import { forbidden } from '../../core/errors.ts';
import type { ConsoleEnv } from './console-env.ts';

/** The hidden form field and the header (htmx requests) that carry the token. */
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The session's CSRF token: derived from the session's stored digest (the SHA-256 of its secret, httpOnly
 * cookie), so it needs no storage, changes with every sign-in, and a page on another origin can neither read
 * nor compute it. The process never holds a session's cookie beyond its request.
 */
export const csrfTokenFor = (sessionDigest: string): Promise<string> => sha256Hex(`console-csrf:${sessionDigest}`);

/** Constant-time comparison of two hex strings. */
const sameToken = (a: string, b: string) => {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
};

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Every state-changing request carries the session's token, in the form (`_csrf`) or the header; without
 * it, or with another one, it is refused with 403 before its handler runs. Runs after the session check.
 */
export const requireCsrfToken: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  let presented = c.req.header(CSRF_HEADER);
  if (presented === undefined) {
    const type = c.req.header('content-type') ?? '';
    if (/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
      const value = (await c.req.parseBody())[CSRF_FIELD];
      if (typeof value === 'string') presented = value;
    }
  }
  if (presented === undefined || !sameToken(presented, c.get('csrfToken'))) {
    throw forbidden('The form has expired or did not come from this console: reload the page and try again', 'CSRF_TOKEN_INVALID');
  }
  await next();
};
