import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID Connect provider (oidc-provider) on loopback, for local runs and tests.
 * Service accounts use the client credentials grant and get JWT access tokens for the API audience;
 * browser users sign in through the provider's development login form (any login name works).
 */
export const API_RESOURCE = 'urn:credential-support-service:api';

export interface ServiceAccount {
  clientId: string;
  clientSecret: string;
  /** Group claim values put into this account's access tokens (closed tenant mode). */
  groups?: string[];
  /** Issue access tokens without a `sub` claim (to test that they are refused). */
  omitSub?: boolean;
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
}

export interface LocalIdpOptions {
  port?: number;
  /** Audience of API access tokens (AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE). */
  audience: string;
  /** Browser client of the web app. */
  appClient: { clientId: string; clientSecret: string; redirectUris: string[] };
  serviceAccounts: ServiceAccount[];
  /** Group claim of browser users by login name. */
  userGroups?: Record<string, string[]>;
}

export interface LocalIdp {
  issuer: string;
  provider: Provider;
  /** How many requests each path of the provider has served (e.g. `/jwks`). */
  requestCount(path: string): number;
  /** Client credentials grant, as a service account would do it (another resource → another audience). */
  clientCredentialsToken(clientId: string, clientSecret: string, resource?: string): Promise<string>;
  close(): Promise<void>;
}

const isTokenRequest = (request: IncomingMessage, issuer: string) =>
  request.method === 'POST' &&
  new URL(request.url ?? '/', issuer).pathname === '/token' &&
  (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');

/**
 * Resource indicators must be absolute URIs, but users naturally send the audience name
 * (AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE) as `resource`: it is read as the API's resource. The provider
 * then takes the already-read body from `request.body`.
 */
const acceptAudienceAsResource = async (request: IncomingMessage, audience: string): Promise<void> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  if (form.getAll('resource').includes(audience)) {
    form.delete('resource');
    form.append('resource', API_RESOURCE);
  }
  (request as IncomingMessage & { body?: string }).body = form.toString();
};

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

/** A client credentials grant at `issuer`'s token endpoint, as a service account would do it. */
export const requestClientCredentialsToken = async (
  issuer: string,
  clientId: string,
  clientSecret: string,
  resource = API_RESOURCE,
): Promise<string> => {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`)}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'api' }),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (!body.access_token) throw new Error(`local IDP refused the token request: ${body.error_description}`);
  return body.access_token;
};

export const startLocalIdp = async (options: LocalIdpOptions): Promise<LocalIdp> => {
  const server = createServer();
  const port = await listen(server, options.port ?? 0);
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'local-idp-1', alg: 'RS256', use: 'sig' };
  const accounts = new Map(options.serviceAccounts.map((a) => [a.clientId, a]));
  const userGroups = options.userGroups ?? {};
  const appClientId = options.appClient.clientId;
  /** Resource indicators must be URIs; the API's one maps to the configured audience. */
  const apiResource = API_RESOURCE;
  const audienceOf = (resource: string) => (resource === apiResource ? options.audience : resource);

  const configuration: Configuration = {
    clients: [
      {
        client_id: appClientId,
        client_secret: options.appClient.clientSecret,
        redirect_uris: options.appClient.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
      ...options.serviceAccounts.map((a) => ({
        client_id: a.clientId,
        client_secret: a.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      })),
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [crypto.randomUUID()] },
    scopes: ['openid', 'profile', 'email', 'offline_access', 'api'],
    claims: { openid: ['sub'], profile: ['name', 'groups'], email: ['email'] },
    conformIdTokenClaims: false,
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, name: id, email: `${id}@example.test`, groups: userGroups[id] ?? [] }),
    }),
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: 'api',
          audience: audienceOf(resource),
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // First-party app: consent is implied, so sign-in is just the login form.
    loadExistingGrant: async (ctx) => {
      const existing = ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      if (ctx.oidc.client?.clientId !== appClientId || !ctx.oidc.session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: appClientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid profile email');
      grant.addResourceScope(apiResource, 'api');
      await grant.save();
      return grant;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    extraTokenClaims: async (_ctx, token) => {
      const account = accounts.get(token.clientId ?? '');
      return account?.groups ? { groups: account.groups } : undefined;
    },
    formats: {
      customizers: {
        jwt: async (_ctx, token, jwt) => {
          if (accounts.get(token.clientId ?? '')?.omitSub) delete jwt.payload.sub;
        },
      },
    },
    ttl: {
      ClientCredentials: (_ctx, _token, client) => accounts.get(client.clientId)?.accessTokenTtl ?? 3600,
      AccessToken: 3600, IdToken: 3600, RefreshToken: 86400, Session: 86400, Grant: 86400 },
  };

  const provider = new Provider(issuer, configuration);
  provider.on('server_error', (_ctx, error) => console.error('local IDP error:', error));
  const requestCounts = new Map<string, number>();
  server.on('request', (request) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    requestCounts.set(path, (requestCounts.get(path) ?? 0) + 1);
  });
  const callback = provider.callback();
  server.on('request', (request, response) => {
    if (!isTokenRequest(request, issuer)) return callback(request, response);
    acceptAudienceAsResource(request, options.audience)
      .then(() => callback(request, response))
      .catch(() => {
        response.statusCode = 400;
        response.end();
      });
  });

  return {
    issuer,
    provider,
    requestCount: (path) => requestCounts.get(path) ?? 0,
    clientCredentialsToken: (clientId, clientSecret, resource = apiResource) =>
      requestClientCredentialsToken(issuer, clientId, clientSecret, resource),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
