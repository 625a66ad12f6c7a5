import type { MiddlewareHandler } from 'hono';
import { randomToken } from '../../core/crypto/encoding.ts';
import type { ConsoleEnv } from './console-env.ts';

/**
 * The console's Content-Security-Policy: scripts only with this response's nonce (the self-hosted htmx
 * file), styles only from our own stylesheet, requests and form posts only to this origin, never framed.
 */
const consoleCsp = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

/**
 * A fresh nonce per response and the headers every console response carries. Pages show tenant data (and
 * a decryption key once), so nothing is cached and no referrer leaves the console.
 */
export const consoleHeaders: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const nonce = randomToken(16);
  c.set('nonce', nonce);
  await next();
  c.header('Content-Security-Policy', consoleCsp(nonce));
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
  c.header('Cross-Origin-Opener-Policy', 'same-origin');
  if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
};
