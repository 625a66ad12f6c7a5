import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AuthSettings } from '../../../core/settings/web-settings.ts';
import { ApiError } from '../../../core/errors.ts';
import type { Database } from '../../../db/client.ts';
import { Authenticator } from './authenticator.ts';
import { createNodeJwtVerifier } from './node-jwt-verifier.ts';
import type { OidcEndpoints } from './oidc-discovery.ts';

const issuer = 'https://id.example.com';
const audience = 'credential-support-service';
const settings = { issuer, serviceAccountAudience: audience, tenantMode: 'open' } as AuthSettings;

/** An authenticator whose IDP is a local key set that counts how often a signature is checked. */
const authenticatorWithCountedKeys = async (options?: { cacheVerifiedTokens?: boolean }) => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] });
  let checks = 0;
  const counted: JWTVerifyGetKey = (header, token) => {
    checks += 1;
    return keys(header, token);
  };
  const authenticator = new Authenticator(settings, options);
  authenticator.discovery.endpoints = async () => ({ issuer, jwks: counted }) as Awaited<ReturnType<typeof authenticator.discovery.endpoints>>;
  const token = await new SignJWT({ sub: 'svc' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setExpirationTime('1h')
    .sign(privateKey);
  return { authenticator, token, checks: () => checks };
};

describe('verified-token cache', () => {
  it('checks a reused token signature once by default', async () => {
    const { authenticator, token, checks } = await authenticatorWithCountedKeys();
    await authenticator.verifyAccessToken(token);
    await authenticator.verifyAccessToken(token);
    expect(checks()).toBe(1);
  });

  it('checks the signature on every call with cacheVerifiedTokens: false (the benches\' per-request variant)', async () => {
    const { authenticator, token, checks } = await authenticatorWithCountedKeys({ cacheVerifiedTokens: false });
    expect((await authenticator.verifyAccessToken(token)).sub).toBe('svc');
    expect((await authenticator.verifyAccessToken(token)).sub).toBe('svc');
    expect(checks()).toBe(2);
  });

  it('knows no principal for a token until it is verified and its tenant resolved, nor without the cache and a key at hand', async () => {
    const cached = await authenticatorWithCountedKeys();
    expect(cached.authenticator.principalAtOnce(cached.token)).toBeUndefined();
    await cached.authenticator.verifyAccessToken(cached.token);
    expect(cached.authenticator.principalAtOnce(cached.token)).toBeUndefined(); // verified, tenant not resolved yet
    const uncached = await authenticatorWithCountedKeys({ cacheVerifiedTokens: false });
    await uncached.authenticator.verifyAccessToken(uncached.token);
    expect(uncached.authenticator.principalAtOnce(uncached.token)).toBeUndefined();
  });

  it("remembers a bearer token's finished principal: known at once afterwards, one signature check, frozen; never without the cache", async () => {
    for (const cacheVerifiedTokens of [true, false]) {
      const { authenticator, token, checks } = await authenticatorWithCountedKeys({ cacheVerifiedTokens });
      let resolutions = 0;
      authenticator.resolvePrincipal = async () => {
        resolutions += 1;
        return { userId: 'user-1', tenantId: 'tenant-1' };
      };
      const db = undefined as unknown as Parameters<typeof authenticator.bearerPrincipal>[0];
      const principal = await authenticator.bearerPrincipal(db, token);
      expect(principal).toEqual({ userId: 'user-1', tenantId: 'tenant-1', subject: 'svc', via: 'bearer' });
      expect(Object.isFrozen(principal)).toBe(true);
      if (cacheVerifiedTokens) {
        expect(authenticator.principalAtOnce(token)).toBe(principal);
        expect(authenticator.principalAtOnce(`${token}x`)).toBeUndefined();
      } else {
        expect(authenticator.principalAtOnce(token)).toBeUndefined();
        await authenticator.bearerPrincipal(db, token);
        expect([checks(), resolutions]).toEqual([2, 2]);
      }
    }
  });
});

/**
 * An authenticator as the Node web process has it (node:crypto's verifier, which keeps the key at hand),
 * its IDP discovered: a local key set that counts its lookups. Tenants are resolved from a stand-in
 * database that knows every subject and counts its reads (bearer-auth.test.ts runs the real one).
 */
const nodeAuthenticator = async (options: { cacheVerifiedTokens?: boolean; tenantMode?: 'open' | 'closed' } = {}) => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  const keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] });
  let lookups = 0;
  const counted: JWTVerifyGetKey = (header, token) => {
    lookups += 1;
    return keys(header, token);
  };
  const authenticator = new Authenticator(
    { ...settings, tenantMode: options.tenantMode ?? 'open', tenantClaimName: 'groups', tenantClaimFormat: 'array_first' },
    { cacheVerifiedTokens: options.cacheVerifiedTokens, verifyJwt: createNodeJwtVerifier() },
  );
  const endpoints = { issuer, jwks: counted } as OidcEndpoints;
  authenticator.discovery.endpoints = async () => endpoints;
  Object.defineProperty(authenticator.discovery, 'loaded', { value: endpoints });
  let reads = 0;
  // Any query chain (select…where, insert…returning) answers one row of user-1 in tenant-1 when awaited.
  const query: unknown = new Proxy(() => query, {
    get: (_target, name) =>
      name === 'then' ? (resolve: (rows: unknown) => void) => resolve([{ userId: 'user-1', tenantId: 'tenant-1', id: 'tenant-1', n: (reads += 1) }]) : query,
    apply: () => query,
  });
  const db = query as Database;
  const sign = (claims: JWTPayload = {}, key: CryptoKey = privateKey) =>
    new SignJWT({ sub: 'svc', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setExpirationTime(typeof claims.exp === 'number' ? claims.exp : '1h')
      .sign(key);
  return { authenticator, db, sign, strangerKey: stranger.privateKey, lookups: () => lookups, reads: () => reads };
};

describe('principal at once: a fresh token per request, checked against the key at hand', () => {
  it('answers a fresh token of a known subject without asking the key set or the database, verifying it each time', async () => {
    for (const cacheVerifiedTokens of [true, false]) {
      const { authenticator, db, sign, lookups, reads } = await nodeAuthenticator({ cacheVerifiedTokens });
      const first = await sign({ jti: '1' });
      expect(authenticator.principalAtOnce(first)).toBeUndefined(); // no key at hand, no tenant known
      const principal = await authenticator.bearerPrincipal(db, first);
      expect([lookups(), reads()]).toEqual([1, 1]);
      const fresh = await sign({ jti: '2' });
      const atOnce = authenticator.principalAtOnce(fresh);
      expect(atOnce).toEqual(principal);
      expect(Object.isFrozen(atOnce)).toBe(true);
      expect([lookups(), reads()]).toEqual([1, 1]);
      expect(authenticator.principalAtOnce(await sign({ sub: 'another' }))).toBeUndefined(); // its tenant is not known yet
    }
  });

  it('refuses at once, as the full check does: a forged signature, a tampered payload, an expired token, no sub', async () => {
    const { authenticator, db, sign, strangerKey } = await nodeAuthenticator({ cacheVerifiedTokens: false });
    await authenticator.bearerPrincipal(db, await sign());
    const refusal = async (token: string) => {
      let atOnce: unknown;
      try {
        authenticator.principalAtOnce(token);
      } catch (error) {
        atOnce = error;
      }
      const full = await authenticator.bearerPrincipal(db, token).catch((error: unknown) => error);
      expect(atOnce).toBeInstanceOf(ApiError);
      expect(full).toBeInstanceOf(ApiError);
      const said = ({ status, message, code, extra }: ApiError) => [status, message, code, extra];
      expect(said(atOnce as ApiError)).toEqual(said(full as ApiError));
      return said(atOnce as ApiError);
    };
    const [header, payload] = (await sign()).split('.');
    expect(await refusal(`${header}.${payload}.${(await sign({}, strangerKey)).split('.')[2]}`)).toEqual([401, 'Invalid or expired access token', 'UNAUTHENTICATED', undefined]);
    const signature = (await sign()).split('.')[2];
    const tampered = Buffer.from(JSON.stringify({ sub: 'admin', iss: issuer, aud: audience })).toString('base64url');
    expect(await refusal(`${header}.${tampered}.${signature}`)).toEqual([401, 'Invalid or expired access token', 'UNAUTHENTICATED', undefined]);
    expect(await refusal(await sign({ exp: Math.floor(Date.now() / 1000) - 5 }))).toEqual([401, 'Invalid or expired access token', 'UNAUTHENTICATED', undefined]);
    expect(await refusal(await sign({ sub: undefined }))).toEqual([401, 'Unauthorised', undefined, { message: 'Access token has no sub claim' }]);
  });

  it('refuses at once in closed mode a token without the group claim (403), and answers one with it', async () => {
    const { authenticator, db, sign } = await nodeAuthenticator({ cacheVerifiedTokens: false, tenantMode: 'closed' });
    const member = { groups: ['acme'] };
    await authenticator.bearerPrincipal(db, await sign(member));
    expect(authenticator.principalAtOnce(await sign(member))?.tenantId).toBe('tenant-1');
    const outsider = await sign();
    expect(() => authenticator.principalAtOnce(outsider)).toThrow(expect.objectContaining({ status: 403, code: 'TENANT_CLAIM_MISSING' }));
  });

  it("answers no fresh token at once with jose (the edge's verifier keeps no key at hand)", async () => {
    const { authenticator: withJose, db, sign } = await nodeAuthenticator({ cacheVerifiedTokens: false });
    const jose = new Authenticator(withJose.settings, { cacheVerifiedTokens: false });
    jose.discovery.endpoints = withJose.discovery.endpoints;
    Object.defineProperty(jose.discovery, 'loaded', { value: withJose.discovery.loaded });
    await jose.bearerPrincipal(db, await sign());
    expect(jose.principalAtOnce(await sign())).toBeUndefined();
  });
});
