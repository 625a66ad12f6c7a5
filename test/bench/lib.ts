import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { createJobQueue } from '../../core/jobs/job-queue.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { readSystemServices } from '../../core/settings/system-services.ts';
import { readWebSettings } from '../../core/settings/web-settings.ts';
import { connectDatabase, type Database } from '../../db/client.ts';
import { prepareDatabase } from '../../core/start-up/prepare-database.ts';
import { buildApp } from '../../functions/app.ts';
import { staticServices } from '../../functions/platform/with-platform.ts';
import { Authenticator } from '../../functions/platform/auth/authenticator.ts';
import { createNodeJwtVerifier } from '../../functions/platform/auth/node-jwt-verifier.ts';
import { nodeFetch, type NodeBindings } from '../../functions/platform/node-fetch.ts';
import { createServices } from '../../functions/platform/services.ts';
import { requestClientCredentialsToken, type LocalIdpOptions } from '../../scripts/local-idp.ts';
import { npmStartArgs } from '../rig/npm-start.ts';
import { startPostgres } from '../rig/postgres-server.ts';
import type { ServerJob } from './server-process.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/** Connections per load run unless a bench says otherwise (the issues' "10 connections"). */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Seconds per measured run (BENCH_SECONDS; lower it for a quick look, the figures get noisier). */
export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
/** Seconds of load before each measured run (BENCH_WARMUP_SECONDS): JIT, pools and caches settle. */
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/** Paired rounds per comparison (BENCH_ROUNDS); the issue asks for at least five. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Pool size of both the real app and the floor, so they compete on equal terms. */
export const POOL_SIZE = 10;

export interface Listening {
  url: string;
  /** The process serving it, when it has one of its own (its CPU per request is then measured). */
  pid?: number;
  close(): Promise<void>;
}

/** Serves a fetch handler on a free loopback port. */
export const listen = async (fetch: (request: Request, env: NodeBindings) => Response | Promise<Response>): Promise<Listening> => {
  const server = createAdaptorServer({ fetch, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export interface BenchStack {
  /** The real web API (every group under /api/v1) on a loopback port. */
  api: Listening;
  /** The same app, except that it verifies the token's signature on every request (no verified-token cache). */
  verifyingApi: Listening;
  /** Drizzle over the bench database, for fixtures and for floor routes. */
  db: Database;
  /** postgres.js client on the same database (floor routes that want raw SQL). */
  sql: postgres.Sql;
  /** The bench database, e.g. for edge functions run beside the Node app. */
  databaseUrl: string;
  /** The OIDC provider's issuer (AUTH_OIDC_ISSUER). */
  issuer: string;
  /** The web settings both apps run with (for servers started in their own process, see server-process.ts). */
  settingsEnv: Record<string, string>;
  /** A fresh access token of the bench service account from the real OIDC provider. */
  token(): Promise<string>;
  /** A fresh access token of a second service account: another tenant (the isolation bench). */
  otherTenantToken(): Promise<string>;
  close(): Promise<void>;
}

/** The web settings of the bench apps: production ones apart from the loopback URLs. */
export const benchSettingsEnv = (issuer: string, appUrl: string): Record<string, string> => ({
  RI_APP_URL: appUrl,
  DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  AUTH_OIDC_ISSUER: issuer,
  AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
  AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
  AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
  LOG_LEVEL: 'error',
});

export interface BenchApp {
  /** As the Node server calls it (with its bindings). */
  fetch: (request: Request, env: NodeBindings) => Response | Promise<Response>;
  db: Database;
  close(): Promise<void>;
}

/**
 * The real app as the Node web process builds it (services, its own pool of POOL_SIZE, a job queue
 * producer: batch submissions enqueue their first job); `verifyEveryToken` gives it an authenticator
 * without the verified-token cache (a switch only benches use).
 */
export const buildBenchApp = (databaseUrl: string, settingsEnv: Record<string, string>, options: { verifyEveryToken?: boolean } = {}): BenchApp => {
  const connection = connectDatabase(databaseUrl, { max: POOL_SIZE });
  const settings = readWebSettings(settingsEnv);
  const jobs = createJobQueue(databaseUrl, createLogger('error'));
  const verifyJwt = createNodeJwtVerifier();
  const services = createServices(settingsEnv, connection.db, settings, { jobs, verifyJwt });
  const authenticator = options.verifyEveryToken ? new Authenticator(settings.auth, { cacheVerifiedTokens: false, verifyJwt }) : services.authenticator;
  const app = buildApp(staticServices({ ...services, authenticator }));
  return {
    fetch: nodeFetch(app.fetch),
    db: connection.db,
    close: async () => {
      await jobs.close();
      await connection.close();
    },
  };
};

/**
 * A fresh, migrated database (BENCH_DATABASE_URL / TEST_DATABASE_URL server, else embedded), a real
 * OIDC provider, and the real app with production settings apart from the loopback URLs.
 */
export const startBenchStack = async (env: Record<string, string> = {}): Promise<BenchStack> => {
  const server = await startPostgres(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL);
  const name = `css_bench_${process.pid}_${Date.now()}`;
  const admin = postgres(server.adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const databaseUrl = server.urlFor(name);
  await prepareDatabase({ databaseUrl, dataEncryptionKey: TEST_ENCRYPTION_KEY, systemServices: readSystemServices({}) });

  let handler: BenchApp['fetch'] = () => new Response('starting', { status: 503 });
  const api = await listen((request, env) => handler(request, env));
  const account = { clientId: 'bench-service', clientSecret: 'bench-service-secret' };
  const other = { clientId: 'bench-other-tenant', clientSecret: 'bench-other-tenant-secret' };
  const idp = await startIdpProcess({
    audience: TEST_AUDIENCE,
    appClient: { ...TEST_APP_CLIENT, redirectUris: [`${api.url}/auth/callback`] },
    serviceAccounts: [account, other],
  });
  const settingsEnv = { ...benchSettingsEnv(idp.issuer, api.url), ...env };
  const app = buildBenchApp(databaseUrl, settingsEnv);
  handler = app.fetch;
  const verifyingApp = buildBenchApp(databaseUrl, settingsEnv, { verifyEveryToken: true });
  const verifyingApi = await listen(verifyingApp.fetch);
  const sql = postgres(databaseUrl, { max: POOL_SIZE, onnotice: () => {} });

  return {
    api,
    verifyingApi,
    db: app.db,
    sql,
    databaseUrl,
    issuer: idp.issuer,
    settingsEnv,
    token: () => requestClientCredentialsToken(idp.issuer, account.clientId, account.clientSecret),
    otherTenantToken: () => requestClientCredentialsToken(idp.issuer, other.clientId, other.clientSecret),
    close: async () => {
      await api.close();
      await verifyingApi.close();
      await new Promise((resolve) => setTimeout(resolve, 300)); // let requests cut off mid-flight finish
      await idp.close();
      await app.close();
      await verifyingApp.close();
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
      await server.stop();
    },
  };
};

const idpProgram = join(dirname(fileURLToPath(import.meta.url)), 'idp-process.ts');
const serverProgram = join(dirname(fileURLToPath(import.meta.url)), 'server-process.ts');

/**
 * BENCH_PIN_CPUS=1 pins the servers under test to CPU 1 and the load generator to CPU 0 (`taskset`, which
 * keeps the pid the CPU reading needs), so no contender's rounds depend on where the scheduler put it.
 */
const PIN_CPUS = process.env.BENCH_PIN_CPUS === '1';
const SERVER_CPUS = '1';
const LOAD_CPUS = '0';
const nodeOnCpus = (cpus: string | undefined, args: string[]): [string, string[]] =>
  PIN_CPUS && cpus !== undefined ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];

/** A program of this folder as a child process: its job as JSON on stdin, its first stdout line (JSON) back. */
const startChild = <T>(
  program: string,
  job: object,
  nodeFlags: string[] = [],
  cpus?: string,
): Promise<T & { pid?: number; close(): Promise<void> }> =>
  new Promise((resolve, reject) => {
    const child = spawn(...nodeOnCpus(cpus, [...nodeFlags, '--import', 'tsx', program]), { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    const onExit = (code: number | null) => reject(new Error(`${program} exited with ${code}`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (!output.includes('\n')) return;
      child.off('exit', onExit);
      resolve({
        ...(JSON.parse(output) as T),
        pid: child.pid,
        close: async () => {
          if (child.exitCode !== null) return;
          const exited = new Promise((done) => child.once('exit', done));
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.stdin.end(JSON.stringify(job));
  });

/** One server of a comparison in its own process, started as `npm run start:web` starts the web (server-process.ts). */
export const startServerProcess = (job: ServerJob): Promise<Listening> =>
  startChild<{ url: string }>(serverProgram, job, npmStartArgs('functions/server.ts').slice(0, -3), SERVER_CPUS);

/** The local OIDC provider in its own process (see idp-process.ts for why). */
export const startIdpProcess = (options: LocalIdpOptions) => startChild<{ issuer: string }>(idpProgram, options);

/** Calls the API once (fixtures); throws on an unexpected status. */
export const callJson = async (
  url: string,
  options: { method?: string; token?: string; body?: unknown; expect?: number } = {},
  // biome-ignore lint: fixtures read arbitrary JSON.
): Promise<any> => {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (response.status !== (options.expect ?? 200)) throw new Error(`${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
};

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** A string (it crosses into the load generator's process as JSON). */
  body?: string;
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
  /** Requests cycle through these (plain data only: method, path, headers, body). */
  requests?: autocannon.Request[];
  /** autocannon replaces every `[<id>]` in the body with a new unique id per request (letters, digits, `_`, `-`). */
  idReplacement?: boolean;
  /** The server's own process (Listening.pid): its CPU per request is measured too. */
  serverPid?: number;
  /**
   * The load is refused by design (413, 429): non-2xx answers and connections the server closes
   * before reading a refused body are counted, not fatal.
   */
  refusalsExpected?: boolean;
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The server process's CPU time per request in µs, when its pid was given. */
  serverCpuMicros?: number;
  /**
   * The whole machine's busy CPU time (/proc/stat, every process: servers, PostgreSQL, the load generator) per
   * request in µs over the measured run (measure gives it); per operation in pairedMeasurements' results (requestsPerOperation).
   */
  machineCpuMicros?: number;
}

const loadGenerator = join(dirname(fileURLToPath(import.meta.url)), 'load-generator.ts');

/** Runs the load generator as its own process and returns its JSON summary. */
const runLoadGenerator = (job: object): Promise<Omit<LoadResult, 'name'>> =>
  new Promise((resolve, reject) => {
    const child = spawn(...nodeOnCpus(LOAD_CPUS, ['--import', 'tsx', loadGenerator]), { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`load generator exited with ${code}`)),
    );
    child.stdin.end(JSON.stringify(job));
  });

/**
 * Drives load with autocannon in its own process (never in the servers' process): a warm-up of
 * WARMUP_SECONDS, then the measured run. Any non-2xx or error fails loudly.
 */
export const measure = async (name: string, options: LoadOptions): Promise<LoadResult> => {
  const result = await runLoadGenerator({
    options: {
      url: options.url,
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body,
      requests: options.requests,
      idReplacement: options.idReplacement,
      connections: options.connections ?? CONNECTIONS,
    },
    warmupSeconds: options.warmupSeconds ?? WARMUP_SECONDS,
    seconds: options.seconds ?? DURATION,
    serverPid: options.serverPid,
  });
  const summary: LoadResult = { name, ...result, requestsPerSecond: Math.round(result.requestsPerSecond) };
  if (!options.refusalsExpected && (summary.errors > 0 || summary.non2xx > 0)) {
    throw new Error(`${name}: ${summary.errors} errors and ${summary.non2xx} non-2xx responses under load`);
  }
  return summary;
};

/** Prints results as a table, with each row's throughput as a share of a reference row when given. */
export const report = (title: string, rows: LoadResult[], reference?: (row: LoadResult) => number | undefined) => {
  console.log(`\n${title}`);
  console.table(
    rows.map((row) => {
      const against = reference?.(row);
      return {
        run: row.name,
        'req/s': row.requestsPerSecond,
        'p50 ms': row.p50,
        'p99 ms': row.p99,
        ...(against ? { 'vs reference': `${Math.round((row.requestsPerSecond / against) * 100)}%` } : {}),
      };
    }),
  );
};

export { median, medianCpuOf, pairedMeasurements, pairedRounds, pairedTimings, recordPairedCpuRatio, recordPairedRatio, type Contender, type PairedResults } from './paired-rounds.ts';
export { printSummary, recordRatio, recordedRatios, type RatioRow } from './summary.ts';
