import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEVELOPMENT_PLACEHOLDER_KEY } from '../core/settings/encryption-key.ts';
import { startWorker } from '../consumers/worker.ts';
import { readWorkerServiceName } from '../core/settings/worker-settings.ts';
import { createLogger, parseLogLevel } from '../core/logging/logger.ts';
import { startWebServer } from '../functions/server.ts';
import { startStorageServer } from '../storage-service/server.ts';
import { startVcServer } from '../vc-service/server.ts';
import { startPostgres } from '../test/rig/postgres-server.ts';
import { startLocalIdp } from './local-idp.ts';
import { readLocalServiceAccounts } from './local-accounts.ts';

/**
 * `npm start`: the whole stack on embedded defaults, nothing to install beyond `npm install`.
 * PostgreSQL (embedded, data kept in .data/postgres), a local OIDC provider, and the web API.
 * Every default can be overridden by the same environment variables a deployment uses.
 */
const env = process.env;
const WEB_PORT = Number(env.PORT ?? 3003);
const IDP_PORT = Number(env.LOCAL_IDP_PORT ?? 3005);
const PG_PORT = Number(env.LOCAL_POSTGRES_PORT ?? 54329);
const APP_URL = env.RI_APP_URL ?? `http://localhost:${WEB_PORT}`;
const AUDIENCE = env.AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE ?? 'credential-support-service';
const SERVICE_ACCOUNTS = readLocalServiceAccounts(env.LOCAL_SERVICE_ACCOUNTS);
const APP_CLIENT = { clientId: 'credential-support-service', clientSecret: 'local-web-client-secret' };

const dataDir = join(process.cwd(), '.data', 'postgres');
await mkdir(dataDir, { recursive: true });
const postgres = await startPostgres(env.RI_DATABASE_URL ? env.RI_DATABASE_URL : undefined, {
  dataDir,
  port: PG_PORT,
  persistent: true,
});

const idp = await startLocalIdp({
  port: IDP_PORT,
  audience: AUDIENCE,
  appClient: { ...APP_CLIENT, redirectUris: [`${APP_URL}/auth/callback`] },
  serviceAccounts: SERVICE_ACCOUNTS,
  userGroups: new Proxy({}, { get: () => ['local'] }),
});

const STORAGE_PORT = Number(env.STORAGE_PORT ?? 3334);
const STORAGE_API_KEY = env.STORAGE_API_KEY ?? 'local-dev-storage-api-key';
const storage = startStorageServer(
  {
    ...env,
    PORT: String(STORAGE_PORT),
    API_KEY: STORAGE_API_KEY,
    STORAGE_TYPE: 'local',
    LOCAL_DIRECTORY: join(process.cwd(), '.data', 'storage'),
    AVAILABLE_BUCKETS: 'public-data,private-data',
    DEFAULT_BUCKET: 'public-data',
    PUBLIC_URL: `http://localhost:${STORAGE_PORT}`,
    // Render templates are stored as text/html files.
    ALLOWED_UPLOAD_TYPES: 'image/png,image/jpeg,image/webp,application/pdf,text/html',
  },
  { hostname: '127.0.0.1' },
);

const VC_PORT = Number(env.VC_PORT ?? 3332);
const VC_API_KEY = env.VC_API_KEY ?? 'local-dev-vc-api-key';
// The VC service keeps its tables in its own schema (vc_service) of the same local database.
const vc = await startVcServer(
  {
    ...env,
    PORT: String(VC_PORT),
    API_KEY: VC_API_KEY,
    DATABASE_URL: env.VC_DATABASE_URL ?? env.RI_DATABASE_URL ?? postgres.adminUrl,
    // Development only: a fixed key, so local keys survive restarts. Deployments set their own.
    KEY_ENCRYPTION_KEY: env.VC_KEY_ENCRYPTION_KEY ?? DEVELOPMENT_PLACEHOLDER_KEY,
    PUBLIC_URL: env.VC_PUBLIC_URL ?? `http://localhost:${VC_PORT}`,
  },
  { hostname: '127.0.0.1' },
);

const stackEnv = {
  ...env,
  SYSTEM_VC_BASE_URL: env.SYSTEM_VC_BASE_URL ?? `http://localhost:${VC_PORT}`,
  SYSTEM_VC_API_KEY: env.SYSTEM_VC_API_KEY ?? VC_API_KEY,
  SYSTEM_STORAGE_BASE_URL: env.SYSTEM_STORAGE_BASE_URL ?? `http://localhost:${STORAGE_PORT}`,
  // The local storage service (and local upstream doubles) live on loopback; production keeps the guard on.
  FETCH_ALLOW_PRIVATE_URLS: env.FETCH_ALLOW_PRIVATE_URLS ?? 'true',
  SYSTEM_STORAGE_API_KEY: env.SYSTEM_STORAGE_API_KEY ?? STORAGE_API_KEY,
  // Trying revocation and suspension is part of the local walk-through; deployments opt in themselves.
  CREDENTIAL_STATUS_MUTATION_ENABLED: env.CREDENTIAL_STATUS_MUTATION_ENABLED ?? 'true',
  RI_DATABASE_URL: env.RI_DATABASE_URL ?? postgres.adminUrl,
  RI_APP_URL: APP_URL,
  DATA_ENCRYPTION_KEY: env.DATA_ENCRYPTION_KEY ?? DEVELOPMENT_PLACEHOLDER_KEY,
  AUTH_OIDC_ISSUER: env.AUTH_OIDC_ISSUER ?? idp.issuer,
  AUTH_OIDC_CLIENT_ID: env.AUTH_OIDC_CLIENT_ID ?? APP_CLIENT.clientId,
  AUTH_OIDC_CLIENT_SECRET: env.AUTH_OIDC_CLIENT_SECRET ?? APP_CLIENT.clientSecret,
  AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: AUDIENCE,
  WORKER_HEARTBEAT_PATH: env.WORKER_HEARTBEAT_PATH ?? join(process.cwd(), '.data', 'worker-heartbeat'),
};
const web = await startWebServer(stackEnv, WEB_PORT);
const workerLogger = createLogger(parseLogLevel(env.LOG_LEVEL), undefined, { base: { 'service.name': readWorkerServiceName(stackEnv) } });
const worker = await startWorker(stackEnv, workerLogger);

console.log(`
Credential Support Service is running (local development)
  API            ${APP_URL}/api/v1      health: ${APP_URL}/api/health
  API explorer   ${APP_URL}/api-docs
  Worker         running (pg-boss queues in the same database)
  Storage        http://localhost:${STORAGE_PORT}/api/v4 (and /api/3.0.0)   X-API-Key: ${STORAGE_API_KEY}
                 files in .data/storage; buckets public-data, private-data; docs /api-docs
  VC service     http://localhost:${VC_PORT} (VCkit routes: /v2/credentials/issue, /agent/<method>)   Bearer ${VC_API_KEY}
                 keys and status lists in the vc_service schema; did:web documents at /.well-known/did.json
  Browser login  ${APP_URL}/auth/login   (local IDP: any login name, any password)
  Local IDP      ${idp.issuer}
  PostgreSQL     ${env.RI_DATABASE_URL ? '(RI_DATABASE_URL)' : `embedded on 127.0.0.1:${PG_PORT}, data in .data/postgres`}

Service accounts (client credentials; LOCAL_SERVICE_ACCOUNTS=name:group,... offers more):
${SERVICE_ACCOUNTS.map((a) => `  client_id=${a.clientId}  client_secret=${a.clientSecret}  group=${a.groups!.join(',')}`).join('\n')}

  TOKEN=$(curl -s -u ${SERVICE_ACCOUNTS[0]!.clientId}:${SERVICE_ACCOUNTS[0]!.clientSecret} \\
    -d grant_type=client_credentials -d resource=${AUDIENCE} ${idp.issuer}/token | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')
  curl -s -H "Authorization: Bearer $TOKEN" ${APP_URL}/api/v1/registrars

Press Ctrl+C to stop.
`);

let stopping = false;
const stop = async () => {
  if (stopping) process.exit(1);
  stopping = true;
  // First, and at once: Ctrl+C reaches the embedded PostgreSQL too, and a worker that knows it is stopping
  // takes the connections the database cuts as expected (info), not as a failure (warn).
  const workerStopped = worker.stop().then(
    (outcome) => workerLogger.info('Worker stopped', { outcome }),
    (error: unknown) => workerLogger.warn('Worker shutdown failed', { error: String(error) }),
  );
  await web.close().catch(() => {});
  await storage.close().catch(() => {});
  await vc.close().catch(() => {});
  await workerStopped;
  await idp.close().catch(() => {});
  await postgres.stop().catch(() => {});
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
