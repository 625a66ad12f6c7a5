import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';

export interface OidcEndpoints {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  endSessionEndpoint?: string;
  jwks: JWTVerifyGetKey;
}

/**
 * Discovery document and JWKS of the IDP, fetched once and then held: jose's remote key set
 * caches keys and refetches only for an unknown `kid` (with a cooldown), so requests do no network.
 * A failed discovery is retried on the next call rather than cached.
 */
export class OidcDiscovery {
  #pending?: Promise<OidcEndpoints>;
  #loaded?: OidcEndpoints;

  constructor(private readonly issuer: string) {}

  /** The endpoints once discovery has succeeded, without awaiting anything; undefined before. */
  get loaded(): OidcEndpoints | undefined {
    return this.#loaded;
  }

  endpoints(): Promise<OidcEndpoints> {
    this.#pending ??= this.#load().then(
      (endpoints) => (this.#loaded = endpoints),
      (error: unknown) => {
        this.#pending = undefined;
        throw error;
      },
    );
    return this.#pending;
  }

  async #load(): Promise<OidcEndpoints> {
    const response = await fetch(`${this.issuer}/.well-known/openid-configuration`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`OIDC discovery failed with HTTP ${response.status}`);
    const doc = (await response.json()) as Record<string, string | undefined>;
    if (!doc.issuer || !doc.jwks_uri || !doc.token_endpoint || !doc.authorization_endpoint) {
      throw new Error('OIDC discovery document is incomplete');
    }
    return {
      issuer: doc.issuer,
      authorizationEndpoint: doc.authorization_endpoint,
      tokenEndpoint: doc.token_endpoint,
      endSessionEndpoint: doc.end_session_endpoint,
      jwks: createRemoteJWKSet(new URL(doc.jwks_uri), { cooldownDuration: 30_000, cacheMaxAge: 3_600_000 }),
    };
  }
}
