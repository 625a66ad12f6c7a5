import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import S3rver from 's3rver';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalIdp, type LocalIdp } from '../../scripts/local-idp.ts';
import { createTestDatabase, type TestDatabase } from '../rig/databases.ts';
import { freePort } from '../rig/postgres-server.ts';
import { untilHealthy } from '../rig/program.ts';
import { interpolate } from './compose-env.ts';

/**
 * docker-compose.yml's topology without a Docker engine: each service of the app image runs its compose command
 * (the compiled program, `npm run build` first) as a process with its compose environment, interpolated from the
 * variables a `.env` would give. Service names and network aliases map to loopback and in-network ports to free
 * ones; PostgreSQL is the test server, MinIO is s3rver (an S3 server), Keycloak the local OIDC provider. Then the
 * README's walk-through through it: issue a DPP with the system default DID, verify it, run a small batch.
 */
interface ComposeService {
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number>;
  ports?: string[];
}
const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };

describe('the compose topology, as processes', () => {
  let dir: string;
  let database: TestDatabase;
  let idp: LocalIdp;
  let s3: S3rver;
  const processes: { name: string; child: ChildProcess; output: () => string }[] = [];
  const port = { web: 0, storage: 0, vc: 0, s3: 0 };
  let api: string;
  const account = { clientId: 'css-service-account', clientSecret: 'compose-topology-secret' };

  /**
   * In-network names → loopback: a `*_HOST` naming a service, `//postgres:5432` → the test server, `//minio:9000` →
   * s3rver, the *.localhost aliases → localhost (as on the host), other service names → 127.0.0.1.
   */
  const toLoopback = (key: string, value: string, pgPort: number) =>
    key.endsWith('_HOST') && Object.keys(compose.services).includes(value)
      ? '127.0.0.1'
      : value
          .replace(/(\/\/|@)(storage|vc)\.localhost:/g, '$1localhost:')
          .replace(/(\/\/|@)postgres:5432\b/g, `$1127.0.0.1:${pgPort}`)
          .replace(/(\/\/|@)minio:9000\b/g, `$1127.0.0.1:${port.s3}`)
          .replace(/(\/\/|@)(storage|vc|web|keycloak|host\.docker\.internal):/g, '$1127.0.0.1:');

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { timeout: 240_000 });
    dir = await mkdtemp(join(tmpdir(), 'css-compose-'));
    database = await createTestDatabase('empty');
    for (const name of Object.keys(port) as (keyof typeof port)[]) port[name] = await freePort();
    s3 = new S3rver({
      port: port.s3,
      address: '127.0.0.1',
      directory: join(dir, 's3'),
      silent: true,
      configureBuckets: [{ name: 'public-data', configs: [] }, { name: 'private-data', configs: [] }],
    });
    await s3.run();
    idp = await startLocalIdp({
      audience: 'credential-support-service',
      appClient: { clientId: 'credential-support-service', clientSecret: 'local-dev-browser-client-secret', redirectUris: [] },
      serviceAccounts: [{ ...account, groups: ['acme'] }],
    });
    const db = new URL(database.url);
    // What `.env` would hold: the keys, ports, database, and the stand-ins' credentials and issuer.
    const vars: Record<string, string> = {
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      VC_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      WEB_PORT: String(port.web),
      STORAGE_PORT: String(port.storage),
      VC_PORT: String(port.vc),
      POSTGRES_USER: decodeURIComponent(db.username),
      POSTGRES_PASSWORD: decodeURIComponent(db.password) || 'unused',
      POSTGRES_DB: db.pathname.slice(1),
      STORAGE_S3_ACCESS_KEY: 'S3RVER',
      STORAGE_S3_SECRET_KEY: 'S3RVER',
      AUTH_OIDC_ISSUER: idp.issuer,
      LOG_LEVEL: 'warn',
    };
    api = interpolate(compose.services.web!.environment!.RI_APP_URL as string, vars);
    const pgPort = Number(db.port || 5432);
    // The VC service first: the web process creates the system default DID on it at start-up.
    for (const name of ['vc', 'storage', 'web', 'worker']) {
      const service = compose.services[name]!;
      const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir };
      for (const [key, value] of Object.entries(service.environment ?? {})) env[key] = toLoopback(key, interpolate(String(value), vars), pgPort);
      // Published `addr:host:container`: the process listens where the host port is.
      const published = service.ports?.[0] && interpolate(service.ports[0], vars).split(':');
      if (published) env.PORT = published[1]!;
      if (env.HOST) env.HOST = '127.0.0.1';
      if (env.WORKER_HEARTBEAT_PATH) env.WORKER_HEARTBEAT_PATH = join(dir, 'worker-heartbeat');
      const [program, ...args] = service.command!;
      expect(program).toBe('node');
      const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      processes.push({ name, child, output: () => output });
      const health = { vc: `http://127.0.0.1:${port.vc}/health-check`, storage: `http://127.0.0.1:${port.storage}/api/v4`, web: `http://127.0.0.1:${port.web}/api/health` }[name];
      if (health) {
        const problem = name === 'storage' ? await untilListening(child, port.storage) : await untilHealthy(child, health, 120);
        if (problem) throw new Error(`${name}: ${problem}\n${output}`);
      }
    }
  }, 420_000);

  /** The storage service answers something (its routes need a key): it listens. */
  const untilListening = async (child: ChildProcess, on: number) => {
    for (let attempt = 0; attempt < 1_200; attempt += 1) {
      if (child.exitCode !== null) return `it exited (${child.exitCode})`;
      try {
        await fetch(`http://127.0.0.1:${on}/`, { signal: AbortSignal.timeout(2_000) });
        return undefined;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return 'not listening in 120 s';
  };

  afterAll(async () => {
    for (const { child } of processes.reverse()) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    await idp?.close();
    await s3?.close();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  const call = async (method: string, path: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  /** The README's DPP request, issued by the system default DID on this stack's VC service. */
  const dppRequest = (issuer: string) => {
    const payload = JSON.parse(readFileSync('core/credentials/test-support/samples/0.7.0-prerelease/dpp/DigitalProductPassport_instance.json', 'utf8'));
    payload.issuer = { type: ['CredentialIssuer'], id: issuer, name: 'Acme Widgets' };
    payload.validFrom = new Date().toISOString();
    payload.validUntil = '2030-01-01T00:00:00Z';
    return { credentialType: 'DigitalProductPassport', version: '0.7.0', credentialPayload: payload };
  };

  it('issues a DPP, verifies it from its stored copy, and runs a small batch to COMPLETED', async () => {
    const token = await idp.clientCredentialsToken(account.clientId, account.clientSecret, 'credential-support-service');
    // The system default DID names the VC service's public URL (vc.localhost in compose, loopback here).
    const issuer = `did:web:localhost%3A${port.vc}:default`;
    let issued = await call('POST', '/api/v1/credentials', token, dppRequest(issuer));
    // The web process creates that DID in the background at start-up: wait for it, bounded.
    for (let attempt = 0; issued.status !== 201 && attempt < 60; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      issued = await call('POST', '/api/v1/credentials', token, dppRequest(issuer));
    }
    const web = () => processes.find((p) => p.name === 'web')!.output();
    if (issued.status !== 201) expect.fail(`${JSON.stringify(issued.body)}\n${JSON.stringify((await call('GET', '/api/v1/dids', token)).body)}\n${web()}`);

    const record = await call('GET', `/api/v1/credentials/${issued.body.credentialId}`, token);
    expect(record.status).toBe(200);
    const { storageUri, digestMultibase, decryptionKey } = record.body as Record<string, string>;
    expect(storageUri).toMatch(new RegExp(`^http://localhost:${port.storage}/`));
    const verified = await call('POST', '/api/v1/credentials/verify', undefined, { uri: storageUri, digestMultibase, decryptionKey });
    expect(verified.status).toBe(200);
    expect(verified.body.verified, JSON.stringify(verified.body)).toBe(true);

    const items = Array.from({ length: 3 }, (_, i) => ({ ...dppRequest(issuer), reference: `lot-${i}` }));
    const submitted = await call('POST', '/api/v1/credentials/batches', token, { items }, { 'idempotency-key': 'compose-topology-1' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    let batch = await call('GET', `/api/v1/credentials/batches/${submitted.body.batchId}`, token);
    for (let attempt = 0; !['COMPLETED', 'NEEDS_ATTENTION', 'CANCELLED'].includes(batch.body.state) && attempt < 240; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      batch = await call('GET', `/api/v1/credentials/batches/${submitted.body.batchId}`, token);
    }
    expect(batch.body.state, JSON.stringify(batch.body)).toBe('COMPLETED');
    expect(batch.body.counts).toMatchObject({ total: 3 });
  }, 240_000);
});
