import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { readWebSettings } from '../../core/settings/web-settings.ts';
import { connectDatabase, type Database } from '../../db/client.ts';
import { createJobQueue } from '../../core/jobs/job-queue.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { buildApp } from '../../functions/app.ts';
import { createNodeJwtVerifier } from '../../functions/platform/auth/node-jwt-verifier.ts';
import { nodeFetch, type NodeBindings } from '../../functions/platform/node-fetch.ts';
import { createServices } from '../../functions/platform/services.ts';
import { createGuardedFetch } from '../../core/net/guarded-fetch.ts';
import type { Services } from '../../functions/platform/env.ts';
import type { GuardOptions } from '../../core/net/fetcher.ts';
import { staticServices } from '../../functions/platform/with-platform.ts';
import { startLocalIdp, type LocalIdp, type ServiceAccount } from '../../scripts/local-idp.ts';
import { createTestDatabase } from './databases.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from './test-settings.ts';

/** Service accounts every test app's IDP knows; the secret of each is `<clientId>-secret`. */
export const ACCOUNTS = {
  tenantA: { clientId: 'tenant-a' },
  tenantB: { clientId: 'tenant-b' },
  acme: { clientId: 'acme-service', groups: ['acme'] },
  acmeToo: { clientId: 'acme-service-2', groups: ['acme'] },
  globex: { clientId: 'globex-service', groups: ['globex'] },
  noGroup: { clientId: 'no-group-service' },
  noSub: { clientId: 'no-sub-service', omitSub: true },
  shortLived: { clientId: 'short-lived-service', accessTokenTtl: 1 },
} satisfies Record<string, Omit<ServiceAccount, 'clientSecret'>>;
export type AccountName = keyof typeof ACCOUNTS;

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is (no JSON encoding), with content-type application/json unless headers say otherwise. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint: tests read arbitrary JSON.
  body: any;
  text: string;
}

export interface TestApp {
  url: string;
  db: Database;
  /** The test database's url (a worker or a job queue over the same database). */
  databaseUrl: string;
  services: Services;
  idp: LocalIdp;
  /** A fresh access token of a named service account. */
  token(account: AccountName): Promise<string>;
  /** Tenant id a service account was provisioned with (after its first authenticated call). */
  tenantOf(account: AccountName): Promise<string>;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

/**
 * The real web app on a loopback port, over its own database cloned from the migrated template,
 * with a real OIDC provider of its own. `env` overrides settings (e.g. TENANT_MODE=closed).
 */
export const startTestApp = async (
  options: { env?: Record<string, string>; userGroups?: Record<string, string[]>; fetch?: Partial<GuardOptions> } = {},
): Promise<TestApp> => {
  const database = await createTestDatabase();
  // The Node bindings (`env`) are passed on: routes read the client's socket address from them.
  let handler: (request: Request, env: NodeBindings) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const server = createAdaptorServer({ fetch: (request: Request, env: NodeBindings) => handler(request, env), hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const idp = await startLocalIdp({
    audience: TEST_AUDIENCE,
    appClient: { ...TEST_APP_CLIENT, redirectUris: [`${url}/auth/callback`] },
    serviceAccounts: Object.values(ACCOUNTS).map((a) => ({ ...a, clientSecret: `${a.clientId}-secret` })),
    userGroups: options.userGroups,
  });
  const env = {
    RI_APP_URL: url,
    DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    AUTH_OIDC_ISSUER: idp.issuer,
    AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
    AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
    AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
    LOG_LEVEL: 'error',
    ...options.env,
  };
  const connection = connectDatabase(database.url, { max: 5 });
  const settings = readWebSettings(env);
  const fetcher = createGuardedFetch({ allowPrivate: settings.allowPrivateUrls, userAgent: 'css-test', timeoutMs: 2000, ...options.fetch });
  const jobs = createJobQueue(database.url, createLogger('error'));
  // The Node web process's token check, as functions/server.ts passes it (the edge tests run jose's).
  const services = createServices(env, connection.db, settings, { fetcher, jobs, verifyJwt: createNodeJwtVerifier() });
  const app = buildApp(staticServices(services));
  // As the Node web process serves it (functions/web-serve.ts).
  handler = nodeFetch(app.fetch);

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };

  return {
    url,
    db: connection.db,
    databaseUrl: database.url,
    services,
    idp,
    token: (account) => {
      const { clientId } = ACCOUNTS[account];
      return idp.clientCredentialsToken(clientId, `${clientId}-secret`);
    },
    tenantOf: async (account) => {
      const user = await connection.db.query.users.findFirst({
        where: (u, { eq }) => eq(u.subject, ACCOUNTS[account].clientId),
      });
      if (!user) throw new Error(`${account} has not called the API yet`);
      return user.tenantId;
    },
    call,
    close: async () => {
      (server as import('node:http').Server).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await idp.close();
      await jobs.close();
      await connection.close();
      await database.drop();
    },
  };
};
