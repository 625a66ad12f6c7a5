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
import { joseJwtVerifier, type JwtVerifier } from './jwt-verifier.ts';
import { OidcDiscovery } from './oidc-discovery.ts';

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
      payload = await this.#verifyJwt(token, idp.jwks, { issuer: idp.issuer, audience: this.settings.serviceAccountAudience });
    } catch {
      throw invalidCredential('Invalid or expired access token');
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw unauthenticated('Access token has no sub claim');
    }
    const verified = payload as JWTPayload & { sub: string };
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
    if (typeof payload.sub !== 'string' || payload.sub === '') throw unauthenticated('ID token has no sub claim');
    return payload as JWTPayload & { sub: string };
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
    const identity = {
      subject: claims.sub,
      name: typeof claims.name === 'string' ? claims.name : undefined,
      email: typeof claims.email === 'string' ? claims.email : undefined,
    };
    const tenant = this.#tenantKey(claims);
    if (!tenant) throw missingGroupClaim(this.settings.tenantClaimName);
    const { key, group } = tenant;
    return this.#cached(key, () => (group === undefined ? resolveOpenModeTenant(db, identity) : resolveClosedModeTenant(db, identity, group)));
  }

  /**
   * The principal of a bearer token verified and resolved before, while both are remembered, found
   * with one lookup and without awaiting anything: the common case of a client reusing its token (the
   * hot path of every request). Undefined when either must be done (again): then bearerPrincipal does it.
   */
  knownPrincipal(token: string): Principal | undefined {
    return this.#cacheVerifiedTokens ? this.#bearerPrincipals.get(token) : undefined;
  }

  /** The principal a bearer token stands for: the token verified (or remembered), its tenant resolved. */
  async bearerPrincipal(db: Database, token: string): Promise<Principal> {
    const claims = await this.verifyAccessToken(token);
    const resolved = await this.resolvePrincipal(db, claims);
    const principal: Principal = Object.freeze({ ...resolved, subject: claims.sub, via: 'bearer' });
    const lifetime = rememberedFor(claims, BEARER_PRINCIPAL_CACHE_MS);
    if (this.#cacheVerifiedTokens && lifetime > 0) this.#bearerPrincipals.set(token, principal, lifetime);
    return principal;
  }

  /**
   * Which cached tenant a caller maps to: by subject (open mode), or by subject and group (closed mode,
   * with the group); none in closed mode without the group claim.
   */
  #tenantKey(claims: JWTPayload & { sub: string }): { key: string; group?: string } | undefined {
    if (this.settings.tenantMode === 'open') return { key: `open:${claims.sub}` };
    const group = this.groupOf(claims);
    return group === undefined ? undefined : { key: `closed:${claims.sub}\u0000${group}`, group };
  }

  async #cached(key: string, load: () => Promise<ResolvedPrincipal>): Promise<ResolvedPrincipal> {
    const hit = this.#principals.get(key);
    if (hit) return hit;
    const resolved = await load();
    this.#principals.set(key, resolved);
    return resolved;
  }
}
