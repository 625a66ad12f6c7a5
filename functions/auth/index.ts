import { CodeChallengeMethod, generateCodeVerifier, generateState } from 'arctic';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { badRequest } from '../../core/errors.ts';
import { invalidCredential } from '../platform/auth/auth-errors.ts';
import {
  createBrowserSession,
  deleteBrowserSession,
  oauthClient,
  SESSION_COOKIE,
} from '../platform/auth/browser-sessions.ts';
import { createGroupApp } from '../platform/create-app.ts';
import { safeReturnPath } from './return-path.ts';

const FLOW_COOKIE = 'css_oauth';
const SCOPES = ['openid', 'profile', 'email'];


/** Browser sign-in: OIDC authorization code flow with PKCE, then a server-side session cookie. */
export const authApp = createGroupApp();

authApp.get('/login', async (c) => {
  const services = c.get('services');
  const idp = await services.authenticator.discovery.endpoints();
  const state = generateState();
  const verifier = generateCodeVerifier();
  const url = oauthClient(services).createAuthorizationURLWithPKCE(
    services.settings.auth.authorizationUrl ?? idp.authorizationEndpoint,
    state,
    CodeChallengeMethod.S256,
    verifier,
    SCOPES,
  );
  const flow = JSON.stringify({ state, verifier, returnTo: safeReturnPath(c.req.query('returnTo')) });
  setCookie(c, FLOW_COOKIE, btoa(flow), {
    httpOnly: true,
    sameSite: 'Lax',
    secure: services.settings.auth.secureCookies,
    path: '/auth',
    maxAge: 600,
  });
  return c.redirect(url.toString(), 302);
});

authApp.get('/callback', async (c) => {
  const services = c.get('services');
  const raw = getCookie(c, FLOW_COOKIE);
  deleteCookie(c, FLOW_COOKIE, { path: '/auth' });
  const code = c.req.query('code');
  const state = c.req.query('state');
  if (c.req.query('error')) throw invalidCredential(`Sign-in failed: ${c.req.query('error')}`);
  if (!raw || !code || !state) throw badRequest('Sign-in callback is missing its code, state or flow cookie');
  let flow: { state: string; verifier: string; returnTo: string };
  try {
    flow = JSON.parse(atob(raw));
  } catch {
    throw badRequest('Sign-in flow cookie is malformed');
  }
  if (flow.state !== state) throw badRequest('Sign-in state does not match');
  const idp = await services.authenticator.discovery.endpoints();
  let tokens;
  try {
    tokens = await oauthClient(services).validateAuthorizationCode(idp.tokenEndpoint, code, flow.verifier);
  } catch {
    throw invalidCredential('Sign-in code was refused by the identity provider');
  }
  const claims = await services.authenticator.verifyIdToken(tokens.idToken());
  const principal = await services.authenticator.resolvePrincipal(services.db, claims);
  const token = await createBrowserSession(services, {
    ...principal,
    refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : undefined,
  });
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: services.settings.auth.secureCookies,
    path: '/',
    maxAge: services.settings.auth.sessionMaxAgeSeconds,
  });
  return c.redirect(safeReturnPath(flow.returnTo), 302);
});

const logout = createGroupApp();
logout.on(['GET', 'POST'], '/', async (c) => {
  const token = getCookie(c, SESSION_COOKIE);
  if (token) await deleteBrowserSession(c.get('services'), token);
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
  return c.redirect('/', 302);
});
authApp.route('/logout', logout);
