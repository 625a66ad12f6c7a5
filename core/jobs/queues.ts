import type { WorkerSettings } from '../settings/worker-settings.ts';

/** The queues of the spec; producers (web, CLI) and consumers (worker) share these names. */
export const QUEUE_NAMES = {
  verifyGeneration: 'library.verify-generation',
  reconcilePendingRuns: 'library.reconcile-pending-runs',
  issueBatch: 'credentials.issue-batch',
  reconcileBatches: 'credentials.reconcile-batches',
  expireBatches: 'credentials.expire-batches',
} as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export interface QueueDefinition {
  name: QueueName;
  policy: 'standard' | 'singleton' | 'stately';
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  retryDelayMax?: number;
  expireInSeconds: number;
}

/** The settings a queue's policy is made of (the worker's; a producer that creates a queue first uses the defaults). */
export type QueueSettings = Pick<
  WorkerSettings,
  'jobTimeoutSeconds' | 'batchRetryLimit' | 'batchRetryBackoffSeconds' | 'batchRetryBackoffMaxSeconds'
>;

/** The spec's defaults of the settings above. */
export const DEFAULT_QUEUE_SETTINGS: QueueSettings = {
  jobTimeoutSeconds: 300,
  batchRetryLimit: 4,
  batchRetryBackoffSeconds: 30,
  batchRetryBackoffMaxSeconds: 600,
};

/**
 * Each queue's retry and expiry policy, declared once. The worker creates or updates the queues
 * with them at start; a producer creates a missing queue it sends to (with the defaults), so a
 * submission on a database no worker has seen yet is kept until a worker starts.
 */
/**
 * How long a sweep job may stay active. A sweep is a singleton (one active at a time), so a sweep
 * whose worker was killed holds the slot until it expires and every later sweep waits behind it: with
 * the job timeout (300 s by default, plus pg-boss's minute of supervision) that was the reconciliation
 * sweep that did not run for about 7 minutes. A sweep does bounded work (its batch size of short
 * transactions); one that outlives this is failed by pg-boss and the next may overlap it, which every
 * sweep tolerates (each locks and re-checks what it changes).
 */
export const SWEEP_EXPIRE_SECONDS = 30;

export const queueDefinitions = (s: QueueSettings): QueueDefinition[] => {
  const sweep = {
    policy: 'singleton' as const,
    retryLimit: 0,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: Math.min(s.jobTimeoutSeconds, SWEEP_EXPIRE_SECONDS),
  };
  return [
    {
      name: QUEUE_NAMES.issueBatch,
      policy: 'standard',
      retryLimit: s.batchRetryLimit,
      retryDelay: s.batchRetryBackoffSeconds,
      retryBackoff: true,
      retryDelayMax: s.batchRetryBackoffMaxSeconds,
      expireInSeconds: s.jobTimeoutSeconds,
    },
    {
      name: QUEUE_NAMES.verifyGeneration,
      policy: 'standard',
      retryLimit: 3,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 600,
      expireInSeconds: s.jobTimeoutSeconds,
    },
    { name: QUEUE_NAMES.reconcilePendingRuns, ...sweep },
    { name: QUEUE_NAMES.reconcileBatches, ...sweep },
    { name: QUEUE_NAMES.expireBatches, ...sweep },
  ];
};

/** Cron for the expiry sweep: every N minutes below an hour, else every N/60 hours. */
export const expirySweepCron = (minutes: number): string =>
  minutes < 60 ? `*/${minutes} * * * *` : `0 */${minutes / 60} * * *`;
