import { OAuth2Client } from 'arctic';
import { eq } from 'drizzle-orm';
import { randomToken, sha256Hex } from '../../../core/crypto/encoding.ts';
import { browserSessions, users } from '../../../db/schema/index.ts';
import type { Principal, Services } from '../env.ts';
import { invalidCredential } from './auth-errors.ts';

export const SESSION_COOKIE = 'css_session';

export const oauthClient = (services: Services): OAuth2Client =>
  new OAuth2Client(
    services.settings.auth.clientId,
    services.settings.auth.clientSecret ?? null,
    `${services.settings.appUrl}/auth/callback`,
  );

/** Stores a new session and returns the cookie value (only its hash is kept server-side). */
export const createBrowserSession = async (
  services: Services,
  input: { userId: string; tenantId: string; refreshToken?: string },
): Promise<string> => {
  const token = randomToken();
  const now = Date.now();
  await services.db.insert(browserSessions).values({
    tokenHash: await sha256Hex(token),
    userId: input.userId,
    tenantId: input.tenantId,
    refreshTokenEncrypted: input.refreshToken ? await services.secretBox.encrypt(input.refreshToken) : null,
    expiresAt: new Date(now + services.settings.auth.sessionMaxAgeSeconds * 1000),
    refreshedAt: new Date(now),
  });
  return token;
};

export const deleteBrowserSession = async (services: Services, token: string): Promise<void> => {
  await services.db.delete(browserSessions).where(eq(browserSessions.tokenHash, await sha256Hex(token)));
};

/**
 * The principal of a session cookie, with the session's stored digest (what the server keeps instead of the
 * cookie: something to key per-session values by without holding the cookie itself). In closed mode the access
 * token is refreshed once the refresh interval has passed, and the tenant follows the group claim of the new ID token.
 */
export const sessionOfCookie = async (services: Services, token: string): Promise<{ principal: Principal; sessionDigest: string }> => {
  const tokenHash = await sha256Hex(token);
  return { principal: await principalOfStoredSession(services, tokenHash), sessionDigest: tokenHash };
};

/** The principal of a session cookie (see `sessionOfCookie`). */
export const principalFromSession = async (services: Services, token: string): Promise<Principal> =>
  (await sessionOfCookie(services, token)).principal;

const principalOfStoredSession = async (services: Services, tokenHash: string): Promise<Principal> => {
  const [row] = await services.db
    .select({ session: browserSessions, subject: users.subject })
    .from(browserSessions)
    .innerJoin(users, eq(users.id, browserSessions.userId))
    .where(eq(browserSessions.tokenHash, tokenHash));
  if (!row || row.session.expiresAt.getTime() <= Date.now()) {
    if (row) await services.db.delete(browserSessions).where(eq(browserSessions.tokenHash, tokenHash));
    throw invalidCredential('Session expired or unknown; sign in again');
  }
  const { session, subject } = row;
  const auth = services.settings.auth;
  const due = Date.now() - session.refreshedAt.getTime() >= auth.sessionRefreshSeconds * 1000;
  if (auth.tenantMode === 'closed' && due) {
    const tenantId = await refreshSessionTenant(services, tokenHash, session.refreshTokenEncrypted);
    return { userId: session.userId, tenantId, subject, via: 'session' };
  }
  return { userId: session.userId, tenantId: session.tenantId, subject, via: 'session' };
};

const refreshSessionTenant = async (
  services: Services,
  tokenHash: string,
  refreshTokenEncrypted: string | null,
): Promise<string> => {
  const end = async () => services.db.delete(browserSessions).where(eq(browserSessions.tokenHash, tokenHash));
  try {
    if (!refreshTokenEncrypted) throw new Error('session has no refresh token');
    const idp = await services.authenticator.discovery.endpoints();
    const tokens = await oauthClient(services).refreshAccessToken(
      idp.tokenEndpoint,
      await services.secretBox.decrypt(refreshTokenEncrypted),
      [],
    );
    const claims = await services.authenticator.verifyIdToken(tokens.idToken());
    const { tenantId } = await services.authenticator.resolvePrincipal(services.db, claims);
    await services.db
      .update(browserSessions)
      .set({
        tenantId,
        refreshedAt: new Date(),
        ...(tokens.hasRefreshToken()
          ? { refreshTokenEncrypted: await services.secretBox.encrypt(tokens.refreshToken()) }
          : {}),
      })
      .where(eq(browserSessions.tokenHash, tokenHash));
    return tenantId;
  } catch (error) {
    await end();
    if (error instanceof Error && 'status' in error && (error as { status: number }).status === 403) throw error;
    throw invalidCredential('Session could not be refreshed; sign in again');
  }
};
