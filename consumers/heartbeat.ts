import { rename, writeFile } from 'node:fs/promises';

export interface ConsumerActivity {
  /** Newest poll of any consumer (ms since epoch), or null when none has polled. */
  lastFetchedOn: number | null;
  /** Start of the job in flight, or null when idle. */
  jobStartedOn: number | null;
}

/**
 * Healthy when the queue connection answers and the consumers are alive: one fetched within 30 s,
 * or one is inside a job started within WORKER_JOB_TIMEOUT_SECONDS + 60 s. A worker with no
 * consumers registered yet is healthy while its queue connection answers.
 */
export const isWorkerAlive = (
  activity: ConsumerActivity | undefined,
  jobTimeoutSeconds: number,
  now = Date.now(),
): boolean => {
  if (!activity) return true;
  if (activity.lastFetchedOn !== null && now - activity.lastFetchedOn <= 30_000) return true;
  return activity.jobStartedOn !== null && now - activity.jobStartedOn <= (jobTimeoutSeconds + 60) * 1000;
};

/** Atomic write: a reader never sees a half-written heartbeat. */
export const writeHeartbeat = async (path: string, now = new Date()): Promise<void> => {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, now.toISOString());
  await rename(temporary, path);
};
