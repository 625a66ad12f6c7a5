import type { MiddlewareHandler } from 'hono';

/**
 * The page's Content-Security-Policy. Scripts come only from this origin (no inline script anywhere),
 * the page talks only to its own API, and it cannot be framed.
 *
 * `style-src 'unsafe-inline'` and `img-src https:` are there for the credential frame: a sandboxed
 * `srcdoc` frame inherits this policy (Chromium and the CSP spec), so without them a template's own
 * `<style>` and its https images would be blocked. The page itself never writes untrusted markup (it
 * uses `textContent`), and the frame adds a stricter policy of its own (see `assets/render.js`).
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers on every response of the page and its assets. `no-referrer` keeps a decryption key that
 * came in the page's URL from leaking to any other site; the HTML is `no-store` for the same reason
 * (its URL may hold a key), the assets are revalidated (no-cache + ETag) so a deploy never mixes versions.
 */
export const pageHeaders = (cacheControl: 'no-store' | 'no-cache'): MiddlewareHandler => async (c, next) => {
  await next();
  c.header('Content-Security-Policy', PAGE_CSP);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
  c.header('Cross-Origin-Opener-Policy', 'same-origin');
  c.header('Cache-Control', cacheControl);
};
