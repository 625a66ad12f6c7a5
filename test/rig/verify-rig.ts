import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_KEY as STORAGE_KEY, startStorage, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { useVcServiceAsSystemVc } from './did-fixtures.ts';
import { startTestApp, type CallResult, type TestApp } from './test-app.ts';
import { sampleCredential, type VcService } from '../../vc-service/test/vc-harness.ts';

export const VERIFY_PATH = '/api/v1/credentials/verify';

/** A plain HTTP server standing in for any credential source: each path answers as a test says. */
export interface Source {
  url: string;
  routes: Map<string, (req: IncomingMessage, res: ServerResponse) => void>;
  /** Serves a body (JSON unless a string) at a path. */
  serve(path: string, body: unknown, status?: number): string;
  /** A path that answers only when released; `arrived` settles once a request reaches it. */
  hold(path: string, body: unknown): { url: string; arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

export const startSource = async (): Promise<Source> => {
  const routes: Source['routes'] = new Map();
  const server = createServer((req, res) => {
    const route = routes.get(new URL(req.url!, 'http://source').pathname);
    if (route) route(req, res);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const text = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));
  return {
    url,
    routes,
    serve(path, body, status = 200) {
      routes.set(path, (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(text(body)));
      return `${url}${path}`;
    },
    hold(path, body) {
      let arrive!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const waiting: ServerResponse[] = [];
      let released = false;
      routes.set(path, (_req, res) => {
        if (released) return void res.writeHead(200, { 'content-type': 'application/json' }).end(text(body));
        waiting.push(res);
        arrive();
      });
      return {
        url: `${url}${path}`,
        arrived,
        release() {
          released = true;
          for (const res of waiting.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end(text(body));
        },
      };
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
};

export interface Stored {
  uri: string;
  digestMultibase: string;
  decryptionKey?: string;
}

/**
 * What the verify tests need: the web app (private URLs allowed: every service is on loopback), the
 * real VC service as the system VC instance with an issuer DID, the real storage service, and a source server.
 */
export interface VerifyRig {
  t: TestApp;
  vc: VcService;
  storage: StorageHarness;
  source: Source;
  issuer: string;
  /** A credential signed by the VC service (sampleCredential of the issuer, with `extra` fields). */
  issue(extra?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Uploads a document to the storage service (public, or encrypted in the private bucket); `legacy` speaks 3.x, which answers a hex `hash`. */
  store(data: unknown, options?: { encrypt?: boolean; legacy?: boolean }): Promise<Stored & { hash?: string }>;
  /** A revocation (or suspension) status entry minted by the VC service for the issuer. */
  mintStatus(purpose?: string): Promise<Record<string, unknown>>;
  setStatus(entry: Record<string, unknown>, status: boolean): Promise<void>;
  verify(body: unknown, headers?: Record<string, string>): Promise<CallResult>;
  close(): Promise<void>;
}

/** `env` is the web app's extra environment, `vcEnv` the VC service's (e.g. a foreign issuer's `vcEnv`). */
export const startVerifyRig = async (env: Record<string, string> = {}, vcEnv: Record<string, string> = {}): Promise<VerifyRig> => {
  // Every request of a test file comes from 127.0.0.1: the per-client limit is lifted unless a test sets it.
  const t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true', VERIFY_RATE_LIMIT_PER_MINUTE: '1000000', ...env } });
  const [vc, storage, source] = await Promise.all([useVcServiceAsSystemVc(t, vcEnv), startStorage('local'), startSource()]);
  const created = await vc.agent('didManagerCreate', { alias: 'issuer.example.com' });
  if (created.status !== 200) throw new Error(`issuer DID not created: ${JSON.stringify(created.body)}`);
  const issuer = created.body.did as string;
  return {
    t,
    vc,
    storage,
    source,
    issuer,
    async issue(extra = {}) {
      const res = await vc.call('POST', '/v2/credentials/issue', { json: { credential: sampleCredential(issuer, extra), options: { proofFormat: 'EnvelopingProofJose' } } });
      if (res.status !== 201) throw new Error(`not issued: ${res.text}`);
      return res.body.verifiableCredential;
    },
    async store(data, { encrypt = false, legacy = false } = {}) {
      const res = await storage.call('POST', `/api/${legacy ? '3.0.0' : 'v4'}/${encrypt ? 'private' : 'public'}`, { json: { data, id: crypto.randomUUID(), bucket: 'documents' }, key: STORAGE_KEY });
      if (res.status !== 201) throw new Error(`not stored: ${await res.text()}`);
      return (await res.json()) as Stored & { hash?: string };
    },
    async mintStatus(purpose = 'revocation') {
      const res = await vc.agent('issueBitstringStatusList', { statusPurpose: purpose, bitstringStatusIssuer: issuer });
      if (res.status !== 200) throw new Error(`no status entry: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async setStatus(entry, status) {
      const res = await vc.agent('setBitstringStatus', {
        statusListCredential: entry.statusListCredential,
        statusListVCIssuer: issuer,
        statusPurpose: entry.statusPurpose,
        index: entry.statusListIndex,
        status,
      });
      if (res.status !== 200) throw new Error(`status not set: ${JSON.stringify(res.body)}`);
    },
    verify: (body, headers) => t.call('POST', VERIFY_PATH, { body, headers }),
    close: async () => {
      await Promise.all([t.close(), vc.stop(), storage.close(), source.close()]);
    },
  };
};

/** The query string of a GET verification. */
export const verifyQuery = (params: Record<string, string>) => `${VERIFY_PATH}?${new URLSearchParams(params)}`;
