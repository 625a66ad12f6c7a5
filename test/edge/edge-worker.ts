import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/** What a Node test app shares with an edge worker started beside it: its database, origin and IDP. */
export interface NodeTestApp {
  databaseUrl: string;
  url: string;
  idp: { issuer: string };
}

/**
 * The bindings an API group's edge entry needs to serve the same tenants as the Node test app: the same database,
 * the Node app's own origin (links written into records are the same from both runtimes), the same encryption
 * key and IDP, private URLs allowed (every service here is on loopback). `extra` adds or overrides settings.
 */
export const edgeBindings = (app: NodeTestApp, extra: Record<string, string> = {}): Record<string, string> => ({
  RI_DATABASE_URL: app.databaseUrl,
  RI_APP_URL: app.url,
  DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  AUTH_OIDC_ISSUER: app.idp.issuer,
  AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
  AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
  AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
  FETCH_ALLOW_PRIVATE_URLS: 'true',
  LOG_LEVEL: 'error',
  ...extra,
});

export interface EdgeWorker {
  mf: Miniflare;
  /** A JSON call through the worker's routes: status, the parsed body when it is JSON, and the text. */
  call: (method: string, path: string, token?: string, body?: unknown) => Promise<{ status: number; body: any; text: string }>;
  close: () => Promise<void>;
}

/**
 * One edge entry bundled as deployed (`npm run build:edge`) into a temporary folder and run in workerd
 * (miniflare) behind the given zone routes, ready when it returns.
 */
export const startEdgeWorker = async (options: { entry: string; name: string; bindings: Record<string, string>; routes: string[] }): Promise<EdgeWorker> => {
  const dir = await mkdtemp(join(tmpdir(), `css-edge-${options.name}-`));
  await bundleEdgeEntry(options.entry, join(dir, `${options.name}.js`));
  const mf = new Miniflare({
    modules: true,
    modulesRoot: dir,
    compatibilityDate: '2026-07-01',
    compatibilityFlags: ['nodejs_compat'],
    bindings: options.bindings,
    scriptPath: join(dir, `${options.name}.js`),
    routes: options.routes,
  });
  await mf.ready;
  const call: EdgeWorker['call'] = async (method, path, token, body) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await mf.dispatchFetch(`http://edge.test${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const json = response.headers.get('content-type')?.startsWith('application/json');
    return { status: response.status, body: json && text ? JSON.parse(text) : undefined, text };
  };
  return {
    mf,
    call,
    close: async () => {
      await mf.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
