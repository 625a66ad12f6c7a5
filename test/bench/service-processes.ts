import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmStartArgs } from '../rig/npm-start.ts';
import { freePort } from '../rig/postgres-server.ts';
import { untilHealthy } from '../rig/program.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/**
 * The deployed programs as their own processes for benches (each with the default WORKERS of its
 * own settings unless `env` says otherwise): the VC service, the storage service (local backend)
 * and the web process. Output goes to this process's stderr so a crash is visible.
 */
export interface ServiceProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export const VC_API_KEY = 'bench-vc-key-0123456789abcdef0123456';
export const STORAGE_API_KEY = 'bench-storage-key-0123456789';
export const STORAGE_BUCKETS = { public: 'documents', private: 'files' } as const;

/**
 * A program (`script`, relative to `cwd`, default this checkout) on a free loopback port, ready once
 * `healthPath` answers; `nodeFlags` go before it, `cleanup` runs after it stops.
 */
export const startProgram = async (
  script: string,
  envOf: (url: string) => Record<string, string>,
  healthPath: string,
  options: { nodeFlags?: string[]; cleanup?: () => Promise<void>; cwd?: string } = {},
): Promise<ServiceProcess> => {
  const { nodeFlags = [], cleanup, cwd } = options;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'error', ...envOf(url), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await cleanup?.();
  };
  const failure = await untilHealthy(child, `${url}${healthPath}`, 60);
  if (failure) {
    await stop();
    throw new Error(`${script} did not start: ${failure}`);
  }
  return { url, pid: child.pid!, stop };
};

/** `vc-service/server.ts` on `databaseUrl` (it keeps its tables in its own schema). */
export const startVcProcess = (databaseUrl: string, env: Record<string, string> = {}) =>
  startProgram('vc-service/server.ts', (url) => ({ API_KEY: VC_API_KEY, DATABASE_URL: databaseUrl, KEY_ENCRYPTION_KEY: '5f'.repeat(32), PUBLIC_URL: url, ...env }), '/health-check');

/** `storage-service/server.ts`, local backend on a fresh directory (removed on stop). */
export const startStorageProcess = async (env: Record<string, string> = {}) => {
  const dir = await mkdtemp(join(tmpdir(), 'css-bench-storage-'));
  return startProgram(
    'storage-service/server.ts',
    (url) => ({
      API_KEY: STORAGE_API_KEY,
      PUBLIC_URL: url,
      STORAGE_TYPE: 'local',
      LOCAL_DIRECTORY: dir,
      AVAILABLE_BUCKETS: `${STORAGE_BUCKETS.public},${STORAGE_BUCKETS.private}`,
      DEFAULT_BUCKET: STORAGE_BUCKETS.public,
      ...env,
    }),
    '/health-check',
    { cleanup: () => rm(dir, { recursive: true, force: true }) },
  );
};

/**
 * `functions/server.ts` on `databaseUrl`, signing in with the bench OIDC provider, its system default
 * VC and storage instances pointing at the given services (private URLs allowed: all on loopback).
 * `nodeFlags` go before the script (e.g. `--cpu-prof`); `cwd` runs another checkout's web process
 * (an earlier commit, with its own node_modules or a link to these) for a before/after comparison.
 */
export const startWebProcess = async (
  options: { databaseUrl: string; oidcIssuer: string; vcUrl: string; storageUrl: string; env?: Record<string, string>; nodeFlags?: string[]; cwd?: string },
) =>
  startProgram(
    'functions/server.ts',
    (url) => ({
      RI_DATABASE_URL: options.databaseUrl,
      RI_APP_URL: url,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      AUTH_OIDC_ISSUER: options.oidcIssuer,
      AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
      AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
      AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
      FETCH_ALLOW_PRIVATE_URLS: 'true',
      SYSTEM_VC_BASE_URL: options.vcUrl,
      SYSTEM_VC_API_KEY: VC_API_KEY,
      SYSTEM_STORAGE_BASE_URL: options.storageUrl,
      SYSTEM_STORAGE_API_KEY: STORAGE_API_KEY,
      SYSTEM_STORAGE_PUBLIC_BUCKET: STORAGE_BUCKETS.public,
      SYSTEM_STORAGE_PRIVATE_BUCKET: STORAGE_BUCKETS.private,
      ...options.env,
    }),
    '/api/health',
    { nodeFlags: [...npmStartArgs('functions/server.ts').slice(0, -3), ...(options.nodeFlags ?? [])], cwd: options.cwd },
  );
