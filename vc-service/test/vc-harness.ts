import { get as httpGet } from 'node:http';
import { createEmptyDatabase, type TestDatabase } from '../../test/rig/databases.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { runProgram, untilHealthy, type Program } from '../../test/rig/program.ts';

export const API_KEY = 'test-vc-service-key-0123456789abcdef';
export const KEY_ENCRYPTION_KEY = '5f'.repeat(32);

export interface VcService {
  url: string;
  apiKey: string;
  databaseUrl: string;
  program: Program;
  /** JSON call; `key: null` sends no Authorization header. */
  call(method: string, path: string, init?: { json?: unknown; raw?: string; headers?: Record<string, string>; key?: string | null }): Promise<{ status: number; body: any; headers: Headers; text: string }>;
  agent(method: string, args: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/**
 * `vc-service/server.ts` as its own program (WORKERS=1) on a fresh empty database (its migration
 * creates the vc_service schema), or on `databaseUrl` to share one with another process.
 */
export const startVcService = async (options: { databaseUrl?: string; env?: Record<string, string> } = {}): Promise<VcService> => {
  let database: TestDatabase | undefined;
  if (!options.databaseUrl) database = await createEmptyDatabase();
  const databaseUrl = options.databaseUrl ?? database!.url;
  const start = async () => {
    // A free port can be taken by another test's server before ours binds it: then ours exits (EADDRINUSE)
    // and is started again on another port.
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const program = runProgram('vc-service/server.ts', {
        API_KEY,
        KEY_ENCRYPTION_KEY,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        WORKERS: '1',
        LOG_LEVEL: 'debug',
        ...options.env,
      });
      const failure = await untilHealthy(program.child, `${url}/health-check`);
      if (!failure) return { url, program };
      if (program.child.exitCode === null) {
        program.child.kill('SIGTERM');
        await program.exited;
      }
      if (attempt === 3 || !program.output().stderr.includes('EADDRINUSE')) {
        await database?.drop();
        throw new Error(`the VC service did not start: ${failure}: ${program.output().stderr}`);
      }
    }
  };
  const { url, program } = await start();
  const stop = async () => {
    if (program.child.exitCode === null) {
      program.child.kill('SIGTERM');
      await program.exited;
    }
    await database?.drop();
  };
  const call: VcService['call'] = async (method, path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key !== null) headers.authorization = `Bearer ${init.key ?? API_KEY}`;
    let body: string | undefined = init.raw;
    if (init.json !== undefined) body = JSON.stringify(init.json);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  };
  return {
    url,
    apiKey: API_KEY,
    databaseUrl,
    program,
    call,
    agent: async (method, args) => {
      const { status, body } = await call('POST', `/agent/${method}`, { json: args });
      return { status, body };
    },
    stop,
  };
};

/** A credential of the shape the main API issues (contract C.6), about 2 KB with `padding`. */
export const sampleCredential = (issuer: string, extra: Record<string, unknown> = {}) => ({
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://test.uncefact.org/vocabulary/untp/dpp/0.6.0/'],
  type: ['VerifiableCredential', 'DigitalProductPassport'],
  id: 'urn:uuid:5b7e0b8e-4c5c-4a8e-9e1a-000000000001',
  issuer: { type: ['CredentialIssuer'], id: issuer, name: 'Acme' },
  validFrom: '2026-01-01T00:00:00Z',
  credentialSubject: { id: 'https://id.example.com/01/09520123456788', name: 'Widget' },
  ...extra,
});

/** GET with a Host header of our choosing (fetch does not let a caller set Host). */
export const getWithHost = (url: string, host: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    httpGet(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });

export const jwsOf = (enveloped: { id: string }) => enveloped.id.slice(enveloped.id.indexOf(',') + 1);
export const decodePart = (jws: string, i: 0 | 1) => JSON.parse(Buffer.from(jws.split('.')[i]!, 'base64url').toString('utf8'));
