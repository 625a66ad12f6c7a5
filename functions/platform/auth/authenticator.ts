import type { JWTPayload } from 'jose';
import { TtlCache } from '../../../core/cache/ttl-cache.ts';
import type { AuthSettings } from '../../../core/settings/web-settings.ts';
import {
  resolveClosedModeTenant,
  resolveOpenModeTenant,
  type ResolvedPrincipal,
} from '../../../core/tenancy/resolve-tenant.ts';
import type { Database } from '../../../db/client.ts';
import type { Principal } from '../env.ts';
import { invalidCredential, missingGroupClaim, unauthenticated } from './auth-errors.ts';
import { joseJwtVerifier, type ExpectedClaims, type JwtVerifier } from './jwt-verifier.ts';
import { OidcDiscovery, type OidcEndpoints } from './oidc-discovery.ts';

/** Subject→tenant mappings never change in open mode and group→tenant never in closed mode. */
const PRINCIPAL_CACHE_MS = 60_000;
/**
 * A verified access token is remembered (by its exact text) until it expires, at most this long, so a
 * client reusing its token pays for one signature check rather than one per request.
 */
const VERIFIED_TOKEN_CACHE_MS = 60_000;
/** A bearer token's finished principal is remembered no longer than either of the above, nor past the token's expiry. */
const BEARER_PRINCIPAL_CACHE_MS = Math.min(VERIFIED_TOKEN_CACHE_MS, PRINCIPAL_CACHE_MS);

/** How long what a token stands for may be remembered: at most `capMs`, never past its expiry (≤ 0: not at all). */
const rememberedFor = (claims: JWTPayload, capMs: number) =>
  claims.exp === undefined ? capMs : Math.min(claims.exp * 1000 - Date.now(), capMs);

const ACCESS_TOKEN_REFUSED = 'Invalid or expired access token';

/** A verified token's claims, which must name its subject (401 otherwise). */
const withSubject = (payload: JWTPayload, what: 'Access token' | 'ID token') => {
  if (typeof payload.sub !== 'string' || payload.sub === '') throw unauthenticated(`${what} has no sub claim`);
  return payload as JWTPayload & { sub: string };
};

/** Verifies IDP tokens and resolves the caller's tenant with the configured tenant mode. */
export class Authenticator {
  readonly discovery: OidcDiscovery;
  readonly #principals = new TtlCache<ResolvedPrincipal>(PRINCIPAL_CACHE_MS);
  readonly #verifiedTokens = new TtlCache<JWTPayload & { sub: string }>(VERIFIED_TOKEN_CACHE_MS);
  /** The finished principal of each bearer token verified and resolved, for as long as both are remembered. */
  readonly #bearerPrincipals = new TtlCache<Principal>(BEARER_PRINCIPAL_CACHE_MS);
  readonly #cacheVerifiedTokens: boolean;
  readonly #verifyJwt: JwtVerifier;

  /**
   * `cacheVerifiedTokens: false` verifies every request's signature (benches measure that case);
   * `verifyJwt` is the runtime's token check (jose on WebCrypto unless the Node entry gives its own).
   */
  constructor(
    readonly settings: AuthSettings,
    options: { cacheVerifiedTokens?: boolean; verifyJwt?: JwtVerifier } = {},
  ) {
    this.discovery = new OidcDiscovery(settings.issuer);
    this.#cacheVerifiedTokens = options.cacheVerifiedTokens ?? true;
    this.#verifyJwt = options.verifyJwt ?? joseJwtVerifier;
  }

  /** Service-account access token: signature (JWKS), issuer, audience, expiry, and a `sub`. */
  async verifyAccessToken(token: string): Promise<JWTPayload & { sub: string }> {
    const known = this.#cacheVerifiedTokens ? this.#verifiedTokens.get(token) : undefined;
    if (known && (known.exp === undefined || known.exp * 1000 > Date.now())) return known;
    const idp = await this.discovery.endpoints();
    let payload: JWTPayload;
    try {
      payload = await this.#verifyJwt(token, idp.jwks, this.#accessTokenExpected(idp));
    } catch {
      throw invalidCredential(ACCESS_TOKEN_REFUSED);
    }
    const verified = withSubject(payload, 'Access token');
    const lifetime = rememberedFor(verified, VERIFIED_TOKEN_CACHE_MS);
    if (lifetime > 0 && this.#cacheVerifiedTokens) this.#verifiedTokens.set(token, verified, lifetime);
    return verified;
  }

  /** ID token from the browser code flow: audience is our client id. */
  async verifyIdToken(token: string): Promise<JWTPayload & { sub: string }> {
    const idp = await this.discovery.endpoints();
    let payload: JWTPayload;
    try {
      payload = await this.#verifyJwt(token, idp.jwks, { issuer: idp.issuer, audience: this.settings.clientId });
    } catch {
      throw invalidCredential('Invalid ID token from the identity provider');
    }
    return withSubject(payload, 'ID token');
  }

  /** The tenant group named by the configured claim, or undefined when absent or empty. */
  groupOf(claims: JWTPayload): string | undefined {
    const value = claims[this.settings.tenantClaimName];
    const candidate =
      this.settings.tenantClaimFormat === 'string' ? value : Array.isArray(value) ? value[0] : value;
    return typeof candidate === 'string' && candidate.trim() !== '' ? candidate.trim() : undefined;
  }

  /** Tenant of a verified principal: 403 in closed mode without the group claim. */
  async resolvePrincipal(db: Database, claims: JWTPayload & { sub: string }): Promise<ResolvedPrincipal> {
    const { key, group } = this.#tenantKey(claims);
    const hit = this.#principals.get(key);
    if (hit) return hit;
    const identity = {
      subject: claims.sub,
      name: typeof claims.name === 'string' ? claims.name : undefined,
      email: typeof claims.email === 'string' ? claims.email : undefined,
    };
    const resolved = await (group === undefined ? resolveOpenModeTenant(db, identity) : resolveClosedModeTenant(db, identity, group));
    this.#principals.set(key, resolved);
    return resolved;
  }

  /**
   * The principal of a bearer token when it can be had without awaiting anything (the hot path of every
   * authenticated request): remembered, for a client reusing its token; or, for a client with a fresh
   * token each time, the token checked against the key at hand for its header and its tenant remembered.
   * Undefined when something must be awaited: then bearerPrincipal does it. Throws the 401 or 403 of a
   * token refused, as bearerPrincipal would.
   */
  principalAtOnce(token: string): Principal | undefined {
    const known = this.#cacheVerifiedTokens ? this.#bearerPrincipals.get(token) : undefined;
    if (known) return known;
    const idp = this.discovery.loaded;
    const atOnce = this.#verifyJwt.atOnce;
    if (!idp || !atOnce) return undefined;
    let payload: JWTPayload | undefined;
    try {
      payload = atOnce(token, idp.jwks, this.#accessTokenExpected(idp));
    } catch {
      throw invalidCredential(ACCESS_TOKEN_REFUSED);
    }
    if (!payload) return undefined;
    const claims = withSubject(payload, 'Access token');
    const resolved = this.#principals.get(this.#tenantKey(claims).key);
    return resolved && this.#finished(token, claims, resolved);
  }

  /** The principal a bearer token stands for: the token verified (or remembered), its tenant resolved. */
  async bearerPrincipal(db: Database, token: string): Promise<Principal> {
    const claims = await this.verifyAccessToken(token);
    return this.#finished(token, claims, await this.resolvePrincipal(db, claims));
  }

  /** A bearer token's principal, remembered (with the cache) for as long as the token may be. */
  #finished(token: string, claims: JWTPayload & { sub: string }, resolved: ResolvedPrincipal): Principal {
    const principal: Principal = Object.freeze({ ...resolved, subject: claims.sub, via: 'bearer' });
    const lifetime = rememberedFor(claims, BEARER_PRINCIPAL_CACHE_MS);
    if (this.#cacheVerifiedTokens && lifetime > 0) this.#bearerPrincipals.set(token, principal, lifetime);
    return principal;
  }

  #accessTokenExpected(idp: OidcEndpoints): ExpectedClaims {
    return { issuer: idp.issuer, audience: this.settings.serviceAccountAudience };
  }

  /**
   * Which cached tenant a caller maps to: by subject (open mode), or by subject and group (closed mode,
   * with the group); 403 in closed mode without the group claim.
   */
  #tenantKey(claims: JWTPayload & { sub: string }): { key: string; group?: string } {
    if (this.settings.tenantMode === 'open') return { key: `open:${claims.sub}` };
    const group = this.groupOf(claims);
    if (group === undefined) throw missingGroupClaim(this.settings.tenantClaimName);
    return { key: `closed:${claims.sub}\u0000${group}`, group };
  }
}
