import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError } from '../../core/errors.ts';
import { sessionOfCookie, SESSION_COOKIE } from '../platform/auth/browser-sessions.ts';
import type { Principal } from '../platform/env.ts';
import { safeReturnPath } from '../auth/return-path.ts';
import type { ConsoleEnv } from './console-env.ts';
import { csrfTokenFor } from './csrf.ts';

/**
 * Where to come back to after signing in: the page itself for a GET; for a form post or an htmx request,
 * the page the browser was on (a post's own URL may not be a page), when it is a console page.
 */
const returnPathOf = (c: Context<ConsoleEnv>) => {
  const here = new URL(c.req.url);
  if (c.req.method === 'GET' && !c.req.header('hx-request')) return here.pathname + here.search;
  const from = c.req.header('hx-current-url') ?? c.req.header('referer');
  if (from) {
    try {
      const page = new URL(from);
      if (page.origin === here.origin && page.pathname.startsWith('/console')) return page.pathname + page.search;
    } catch {
      // not a URL: fall back to the console's home
    }
  }
  return '/console';
};

/** Sends the browser through sign-in and back; htmx follows `HX-Redirect` with a full page load. */
const toSignIn = (c: Context<ConsoleEnv>) => {
  const location = `/auth/login?returnTo=${encodeURIComponent(safeReturnPath(returnPathOf(c)))}`;
  if (c.req.header('hx-request')) return c.body(null, 401, { 'HX-Redirect': location });
  return c.redirect(location, 303);
};

/**
 * The console is for signed-in people: the browser session of /auth (a bearer token is not a console
 * user). No session, an expired or unknown one → sign in and come back. In closed mode the session's
 * tenant follows the group claim (sessionOfCookie); a refused claim is a 403 page.
 */
export const requireSession: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const cookie = getCookie(c, SESSION_COOKIE);
  if (!cookie) return toSignIn(c);
  let session: { principal: Principal; sessionDigest: string };
  try {
    session = await sessionOfCookie(c.get('services'), cookie);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return toSignIn(c);
    throw error;
  }
  c.set('principal', session.principal);
  c.set('csrfToken', await csrfTokenFor(session.sessionDigest));
  await next();
};
