import type { MiddlewareHandler } from 'hono';

/**
 * The page's Content-Security-Policy. Scripts come only from this origin (no inline script anywhere),
 * the page talks only to its own API, and it cannot be framed.
 *
 * A sandboxed `srcdoc` frame inherits this policy (Chromium and the CSP spec), so it is also what bounds a
 * credential's template: `style-src 'unsafe-inline'` lets a template's own `<style>` apply, and images,
 * styles and fonts come only from `data:` URLs and the hosts the operator allows
 * (VERIFY_TEMPLATE_ASSET_HOSTS, none by default), so a template cannot make a verifier's browser contact
 * anyone. The page itself never writes untrusted markup (it uses `textContent`), and the frame adds a
 * policy of its own (see `assets/render.js`).
 */
export const pageCsp = (assetHosts: readonly string[]) => {
  const hosts = assetHosts.map((h) => ` ${h}`).join('');
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'unsafe-inline'${hosts}`,
    `img-src data:${hosts}`,
    `font-src data:${hosts}`,
    "connect-src 'self'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
};

/**
 * Headers on every response of the page and its assets. `no-referrer` keeps a decryption key that
 * came in the page's URL from leaking to any other site; the HTML is `no-store` for the same reason
 * (its URL may hold a key), the assets are revalidated (no-cache + ETag) so a deploy never mixes versions.
 */
export const pageHeaders = (cacheControl: 'no-store' | 'no-cache'): MiddlewareHandler => async (c, next) => {
  await next();
  c.header('Content-Security-Policy', pageCsp(c.get('services')?.settings.verifyPage.templateAssetHosts ?? []));
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
  c.header('Cross-Origin-Opener-Policy', 'same-origin');
  c.header('Cache-Control', cacheControl);
};
