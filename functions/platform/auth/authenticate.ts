import type { Context, MiddlewareHandler, Next } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv, Principal, Services } from '../env.ts';
import { unauthenticated } from './auth-errors.ts';
import { principalFromSession, SESSION_COOKIE } from './browser-sessions.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** A token to verify or resolve (again), or a session cookie: the paths that await something. */
const authenticateAnew = async (c: Context<AppEnv>, next: Next, services: Services, bearer: string | undefined) => {
  let principal: Principal;
  if (bearer) {
    principal = await services.authenticator.bearerPrincipal(services.db, bearer);
  } else {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (!cookie) throw unauthenticated('Authentication required: send a bearer token or sign in at /auth/login');
    principal = await principalFromSession(services, cookie);
  }
  c.set('principal', principal);
  await next();
};

/**
 * Guards a route: a bearer access token or a browser session cookie, resolved to one tenant. A token the
 * authenticator can answer for without awaiting anything (remembered, or checked against the key at hand
 * with its tenant remembered) is answered at once, without a frame of its own around the request (the hot
 * path of every authenticated read); a token it refuses that way is refused at once.
 */
export const authenticate: MiddlewareHandler<AppEnv> = (c, next) => {
  const services = c.get('services');
  const bearer = c.req.header('authorization')?.match(BEARER)?.[1];
  const known = bearer === undefined ? undefined : services.authenticator.principalAtOnce(bearer);
  if (!known) return authenticateAnew(c, next, services, bearer);
  c.set('principal', known);
  return next();
};
