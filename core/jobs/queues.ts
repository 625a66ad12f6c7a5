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

/** Each queue's retry and expiry policy, declared once; the worker creates the queues with them. */
export const queueDefinitions = (s: WorkerSettings): QueueDefinition[] => {
  const sweep = { policy: 'singleton' as const, retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: s.jobTimeoutSeconds };
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
