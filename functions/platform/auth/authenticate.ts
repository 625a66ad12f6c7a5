import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv, Principal } from '../env.ts';
import { unauthenticated } from './auth-errors.ts';
import { principalFromSession, SESSION_COOKIE } from './browser-sessions.ts';

/** Guards a route: a bearer access token or a browser session cookie, resolved to one tenant. */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const services = c.get('services');
  const authorization = c.req.header('authorization');
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  let principal: Principal;
  if (bearer) {
    principal = services.authenticator.knownPrincipal(bearer) ?? (await services.authenticator.bearerPrincipal(services.db, bearer));
  } else {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (!cookie) throw unauthenticated('Authentication required: send a bearer token or sign in at /auth/login');
    principal = await principalFromSession(services, cookie);
  }
  c.set('principal', principal);
  await next();
});
