import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { ConsoleEnv } from './console-env.ts';
import { CSRF_FIELD, CSRF_HEADER } from './csrf.ts';
import { ASSET_PATHS } from './asset-sources.ts';

/** The console's sections, in the order of the navigation. */
export const NAVIGATION = [
  ['Dashboard', '/console'],
  ['Issue', '/console/issue'],
  ['Batches', '/console/batches'],
  ['Credentials', '/console/credentials'],
  ['Organisations', '/console/organisations'],
  ['Facilities', '/console/facilities'],
  ['Products', '/console/products'],
  ['Identifiers', '/console/identifiers'],
  ['Schemes', '/console/schemes'],
  ['Registrars', '/console/registrars'],
  ['DIDs', '/console/dids'],
  ['Library', '/console/library'],
  ['Templates', '/console/templates'],
] as const;

const isCurrent = (path: string, href: string) => (href === '/console' ? path === href : path === href || path.startsWith(`${href}/`));

const HTMX_CONFIG = JSON.stringify({ includeIndicatorCSS: false, history: false });

/** The hidden field every form carries (refused without it: csrf.ts). */
export const CsrfField = (props: { token: string }) => <input type="hidden" name={CSRF_FIELD} value={props.token} />;

/**
 * Every console page: a skip link, a banner with the navigation and sign-out, one main landmark with the
 * page's heading. htmx is loaded with the response's nonce and sends the CSRF token on its own requests.
 */
export const renderPage = (c: Context<ConsoleEnv>, title: string, body: Child, status: 200 | 201 | 400 | 403 | 404 | 409 | 422 | 502 = 200) => {
  const path = c.req.path;
  const token = c.get('csrfToken');
  const html = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content={HTMX_CONFIG} />
        <title>{`${title} · Credential console`}</title>
        <link rel="stylesheet" href={ASSET_PATHS.css} />
        <script src={ASSET_PATHS.htmx} nonce={c.get('nonce')} defer></script>
        <script src={ASSET_PATHS.js} nonce={c.get('nonce')} defer></script>
      </head>
      <body hx-headers={token ? JSON.stringify({ [CSRF_HEADER]: token }) : undefined}>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="banner">
          <a class="brand" href="/console">Credential console</a>
          <nav aria-label="Console">
            <ul>
              {NAVIGATION.map(([label, href]) => (
                <li>
                  <a href={href} aria-current={isCurrent(path, href) ? 'page' : undefined}>{label}</a>
                </li>
              ))}
            </ul>
          </nav>
          {token ? (
            <form method="post" action="/auth/logout" class="sign-out">
              <button type="submit">Sign out</button>
            </form>
          ) : null}
        </header>
        <main id="main" tabindex={-1}>
          <h1>{title}</h1>
          {body}
        </main>
      </body>
    </html>
  );
  return c.html(`<!doctype html>${html}`, status);
};
