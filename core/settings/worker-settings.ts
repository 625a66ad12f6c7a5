import { CronExpressionParser } from 'cron-parser';
import { ConfigError } from '../errors.ts';
import { readDataEncryptionKey } from './encryption-key.ts';
import { readAllowPrivateUrls } from './fetch-settings.ts';
import { readDocumentSettings, type DocumentSettings } from './document-settings.ts';
import { readIssuanceSettings, type IssuanceSettings } from './issuance-settings.ts';
import { readHttpUrl, readInteger, readText, type EnvSource } from './env-readers.ts';

/** Settings the worker checks before its queue starts (spec "Worker settings"). */
export interface WorkerSettings {
  appUrl: string;
  dataEncryptionKey: string;
  allowPrivateUrls: boolean;
  documents: DocumentSettings;
  /** Batch items issue with the same status purposes and tag limits as the web process (spec: the values must match). */
  issuance: IssuanceSettings;
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

const readCron = (env: EnvSource, name: string, fallback: string): string => {
  const value = readText(env, name) ?? fallback;
  try {
    CronExpressionParser.parse(value, { tz: 'UTC', strict: false });
  } catch (error) {
    throw new ConfigError(`${name} is not a valid cron expression: ${(error as Error).message}`);
  }
  return value;
};

/** MAX_BATCH_ITEMS is checked by both roles. */
export const readMaxBatchItems = (env: EnvSource) => readInteger(env, 'MAX_BATCH_ITEMS', 500, { min: 1 });

export const readWorkerSettings = (env: EnvSource, warn: (message: string) => void = console.warn): WorkerSettings => {
  const expirySweepMinutes = readInteger(env, 'BATCH_EXPIRY_SWEEP_MINUTES', 60, { min: 1 });
  if (expirySweepMinutes >= 60 && expirySweepMinutes % 60 !== 0) {
    throw new ConfigError('BATCH_EXPIRY_SWEEP_MINUTES must be below 60 or a multiple of 60');
  }
  return {
    appUrl: readHttpUrl(env, 'RI_APP_URL'),
    dataEncryptionKey: readDataEncryptionKey(env),
    allowPrivateUrls: readAllowPrivateUrls(env, warn),
    documents: readDocumentSettings(env, warn),
    issuance: readIssuanceSettings(env, warn),
    jobTimeoutSeconds: readInteger(env, 'WORKER_JOB_TIMEOUT_SECONDS', 300, { min: 30, max: 86_400 }),
    reconcileCron: readCron(env, 'LIBRARY_RECONCILE_PENDING_RUNS_CRON', '*/10 * * * *'),
    reconcileBatchSize: readInteger(env, 'LIBRARY_RECONCILE_PENDING_RUNS_BATCH_SIZE', 500, { min: 1, max: 10_000 }),
    batchConcurrency: readInteger(env, 'BATCH_JOB_CONCURRENCY', 1, { min: 1 }),
    batchRetryLimit: readInteger(env, 'BATCH_JOB_RETRY_LIMIT', 4, { min: 1 }),
    batchRetryBackoffSeconds: readInteger(env, 'BATCH_JOB_RETRY_BACKOFF_SECONDS', 30, { min: 1 }),
    batchRetryBackoffMaxSeconds: readInteger(env, 'BATCH_JOB_RETRY_BACKOFF_MAX_SECONDS', 600, { min: 1 }),
    expirySweepMinutes,
    retentionDays: readInteger(env, 'BATCH_RETENTION_DAYS', 30, { min: 1 }),
    maxBatchItems: readMaxBatchItems(env),
    heartbeatPath: readText(env, 'WORKER_HEARTBEAT_PATH') ?? '/tmp/worker-heartbeat',
    heartbeatMaxAgeSeconds: readInteger(env, 'WORKER_HEARTBEAT_MAX_AGE_SECONDS', 30, { min: 1 }),
  };
};
