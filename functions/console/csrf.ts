import type { MiddlewareHandler } from 'hono';
import { sha256Hex } from '../../core/crypto/encoding.ts';
import { forbidden } from '../../core/errors.ts';
import type { ConsoleEnv } from './console-env.ts';

/** The hidden form field and the header (htmx requests) that carry the token. */
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Sessions whose token is remembered (by the session's stored digest, never its cookie), the least recently used forgotten first. */
const REMEMBERED_TOKENS = 1000;
const tokens = new Map<string, string>();

/**
 * The session's CSRF token: derived from the session's stored digest (the SHA-256 of its secret, httpOnly
 * cookie), so it needs no storage, changes with every sign-in, and a page on another origin can neither read
 * nor compute it. Every console request needs it (each page's forms carry it) and a WebCrypto digest is a
 * thread-pool round trip (the list page's profile showed it), so the derived tokens of recent sessions are kept
 * in memory, keyed by the digest: the process never holds a session's cookie beyond its request.
 */
export const csrfTokenFor = async (sessionDigest: string): Promise<string> => {
  const known = tokens.get(sessionDigest);
  if (known !== undefined) {
    tokens.delete(sessionDigest);
    tokens.set(sessionDigest, known);
    return known;
  }
  const token = await sha256Hex(`console-csrf:${sessionDigest}`);
  tokens.set(sessionDigest, token);
  if (tokens.size > REMEMBERED_TOKENS) tokens.delete(tokens.keys().next().value!);
  return token;
};

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
