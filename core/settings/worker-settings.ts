import { CronExpressionParser } from 'cron-parser';
import { ConfigError } from '../errors.ts';
import { readMaxBatchItems } from './batch-submission-settings.ts';
import { readDataEncryptionKeys } from './encryption-key.ts';
import { readAllowPrivateUrls } from './fetch-settings.ts';
import { readUserAgent } from '../net/fetcher.ts';
import { readStatusLockAcquireMs } from './credential-status-settings.ts';
import { cacheMaxEntries, readDocumentSettings, type DocumentSettings } from './document-settings.ts';
import { readIssuanceSettings, type IssuanceSettings } from './issuance-settings.ts';
import { readHttpUrl, readInteger, readPositiveNumber, readText, type EnvSource } from './env-readers.ts';

/**
 * Settings the worker checks before its queue starts (spec "Worker settings", every row). Not read:
 * LIBRARY_STORED_COPY_READ_TIMEOUT_MS (retired, ignored if set) and the web-only settings
 * (MAX_REQUEST_BODY_BYTES, MAX_BATCH_REQUEST_BODY_BYTES, IDEMPOTENCY_STALE_CLAIM_MINUTES, API_*, AUTH_*).
 * LOG_LEVEL and LOG_REDACT_PATHS are read first, by core/logging/log-settings.ts, to build the logger.
 */
export interface WorkerSettings {
  appUrl: string;
  dataEncryptionKey: string;
  /** DATA_ENCRYPTION_KEY_PREVIOUS: only while a key rotation is under way. */
  previousDataEncryptionKey?: string;
  allowPrivateUrls: boolean;
  userAgent: string;
  documents: DocumentSettings;
  /** Batch items issue with the same status purposes and tag limits as the web process (spec: the values must match). */
  issuance: IssuanceSettings;
  /** CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: wait bound for the status-list lock when an item mints its status. */
  statusLockAcquireMs: number;
  /** OTEL_WORKER_SERVICE_NAME: emitted as `service.name`. */
  serviceName: string;
  jobTimeoutSeconds: number;
  reconcileCron: string;
  reconcileBatchSize: number;
  batchConcurrency: number;
  batchRetryLimit: number;
  batchRetryBackoffSeconds: number;
  batchRetryBackoffMaxSeconds: number;
  expirySweepMinutes: number;
  retentionDays: number;
  maxBatchItems: number;
  heartbeatPath: string;
  heartbeatMaxAgeSeconds: number;
}

const DEFAULT_WORKER_SERVICE_NAME = 'credential-support-service-worker';

/** OTEL_WORKER_SERVICE_NAME, emitted as `service.name` on every worker log line; unset or blank uses the default. */
export const readWorkerServiceName = (env: EnvSource): string => readText(env, 'OTEL_WORKER_SERVICE_NAME') ?? DEFAULT_WORKER_SERVICE_NAME;

const readCron = (env: EnvSource, name: string, fallback: string): string => {
  const value = readText(env, name) ?? fallback;
  try {
    CronExpressionParser.parse(value, { tz: 'UTC', strict: false });
  } catch (error) {
    throw new ConfigError(`${name} is not a valid cron expression: "${value}"`, 'CONFIG_INVALID', { cause: error });
  }
  return value;
};

/** Documents settings, with CACHE_MAX_ENTRIES checked now: the worker builds its caches from it. */
const readWorkerDocumentSettings = (env: EnvSource, warn: (message: string) => void): DocumentSettings => {
  const documents = readDocumentSettings(env, warn);
  cacheMaxEntries(documents.cacheMaxEntries);
  return documents;
};

/** WORKER_HEARTBEAT_MAX_AGE_SECONDS: read by the worker at boot and by the healthcheck. */
export const readHeartbeatMaxAgeSeconds = (env: EnvSource) => readPositiveNumber(env, 'WORKER_HEARTBEAT_MAX_AGE_SECONDS', 30);
export const readHeartbeatPath = (env: EnvSource) => readText(env, 'WORKER_HEARTBEAT_PATH') ?? '/tmp/worker-heartbeat';

/** BATCH_RETENTION_DAYS: applied when a batch settles (by the worker, or by operator resolution in the CLI). */
export const readBatchRetentionDays = (env: EnvSource) => readInteger(env, 'BATCH_RETENTION_DAYS', 30, { min: 1 });

export const readWorkerSettings = (env: EnvSource, warn: (message: string) => void = console.warn): WorkerSettings => {
  const expirySweepMinutes = readInteger(env, 'BATCH_EXPIRY_SWEEP_MINUTES', 60, { min: 1 });
  if (expirySweepMinutes >= 60 && expirySweepMinutes % 60 !== 0) {
    throw new ConfigError('BATCH_EXPIRY_SWEEP_MINUTES must be below 60 or a multiple of 60');
  }
  return {
    appUrl: readHttpUrl(env, 'RI_APP_URL'),
    ...readDataEncryptionKeys(env),
    allowPrivateUrls: readAllowPrivateUrls(env, warn),
    userAgent: readUserAgent(env.RI_HTTP_USER_AGENT),
    documents: readWorkerDocumentSettings(env, warn),
    issuance: readIssuanceSettings(env, warn),
    statusLockAcquireMs: readStatusLockAcquireMs(env, warn),
    serviceName: readWorkerServiceName(env),
    jobTimeoutSeconds: readInteger(env, 'WORKER_JOB_TIMEOUT_SECONDS', 300, { min: 30, max: 86_400 }),
    reconcileCron: readCron(env, 'LIBRARY_RECONCILE_PENDING_RUNS_CRON', '*/10 * * * *'),
    reconcileBatchSize: readInteger(env, 'LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE', 500, { min: 1, max: 10_000 }),
    batchConcurrency: readInteger(env, 'BATCH_JOB_CONCURRENCY', 1, { min: 1 }),
    batchRetryLimit: readInteger(env, 'BATCH_JOB_RETRY_LIMIT', 4, { min: 1 }),
    batchRetryBackoffSeconds: readInteger(env, 'BATCH_JOB_RETRY_BACKOFF_SECONDS', 30, { min: 1 }),
    batchRetryBackoffMaxSeconds: readInteger(env, 'BATCH_JOB_RETRY_BACKOFF_MAX_SECONDS', 600, { min: 1 }),
    expirySweepMinutes,
    retentionDays: readBatchRetentionDays(env),
    maxBatchItems: readMaxBatchItems(env),
    heartbeatPath: readHeartbeatPath(env),
    heartbeatMaxAgeSeconds: readHeartbeatMaxAgeSeconds(env),
  };
};
