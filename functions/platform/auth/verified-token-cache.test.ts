import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTVerifyGetKey } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AuthSettings } from '../../../core/settings/web-settings.ts';
import { Authenticator } from './authenticator.ts';

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

  it('knows no principal for a token until it is verified and its tenant resolved, nor ever without the cache', async () => {
    const cached = await authenticatorWithCountedKeys();
    expect(cached.authenticator.knownPrincipal(cached.token)).toBeUndefined();
    await cached.authenticator.verifyAccessToken(cached.token);
    expect(cached.authenticator.knownPrincipal(cached.token)).toBeUndefined(); // verified, tenant not resolved yet
    const uncached = await authenticatorWithCountedKeys({ cacheVerifiedTokens: false });
    await uncached.authenticator.verifyAccessToken(uncached.token);
    expect(uncached.authenticator.knownPrincipal(uncached.token)).toBeUndefined();
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
        expect(authenticator.knownPrincipal(token)).toBe(principal);
        expect(authenticator.knownPrincipal(`${token}x`)).toBeUndefined();
      } else {
        expect(authenticator.knownPrincipal(token)).toBeUndefined();
        await authenticator.bearerPrincipal(db, token);
        expect([checks(), resolutions]).toEqual([2, 2]);
      }
    }
  });
});
