import { ConfigError } from '../errors.ts';
import { readInteger, type EnvSource } from './env-readers.ts';

/** MAX_BATCH_ITEMS is checked by both roles (an invalid value fails boot of web and worker alike). */
export const readMaxBatchItems = (env: EnvSource) => readInteger(env, 'MAX_BATCH_ITEMS', 500, { min: 1 });

/** What the web process needs to accept a batch (peer §8 "Batches"); an invalid value fails boot. */
export interface BatchSubmissionSettings {
  /** MAX_BATCH_ITEMS: enforced only here, on submission. */
  maxItems: number;
  /** MAX_BATCH_REQUEST_BODY_BYTES: the raw body limit of a submission (at least MAX_REQUEST_BODY_BYTES). */
  maxRequestBodyBytes: number;
  /** WORKER_JOB_TIMEOUT_SECONDS: the first batch job's expiry (continuations use the worker's value). */
  jobTimeoutSeconds: number;
}

export const readBatchSubmissionSettings = (env: EnvSource, maxRequestBodyBytes: number): BatchSubmissionSettings => {
  const maxBatchBody = readInteger(env, 'MAX_BATCH_REQUEST_BODY_BYTES', Math.max(52_428_800, maxRequestBodyBytes), { min: 1024 });
  if (maxBatchBody < maxRequestBodyBytes) {
    throw new ConfigError('MAX_BATCH_REQUEST_BODY_BYTES must be at least MAX_REQUEST_BODY_BYTES');
  }
  return {
    maxItems: readMaxBatchItems(env),
    maxRequestBodyBytes: maxBatchBody,
    jobTimeoutSeconds: readInteger(env, 'WORKER_JOB_TIMEOUT_SECONDS', 300, { min: 30, max: 86_400 }),
  };
};
