import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError } from '../core/errors.ts';

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
  fetchWindowMs = 30_000,
): boolean => {
  if (!activity) return true;
  if (activity.lastFetchedOn !== null && now - activity.lastFetchedOn <= fetchWindowMs) return true;
  return activity.jobStartedOn !== null && now - activity.jobStartedOn <= (jobTimeoutSeconds + 60) * 1000;
};

/** Atomic write: a reader never sees a half-written heartbeat. */
export const writeHeartbeat = async (path: string, now = new Date()): Promise<void> => {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, now.toISOString());
  await rename(temporary, path);
};

/**
 * WORKER_HEARTBEAT_PATH must be a file the worker can write: its folder exists and is writable, and
 * the path is not a folder. Checked before the queue starts, so a bad path fails boot, not the healthcheck.
 */
export const assertHeartbeatWritable = (path: string): void => {
  try {
    accessSync(dirname(path), constants.W_OK);
  } catch (error) {
    throw new ConfigError(`WORKER_HEARTBEAT_PATH: folder "${dirname(path)}" is not writable`, 'CONFIG_INVALID', { cause: error });
  }
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw new ConfigError(`WORKER_HEARTBEAT_PATH: "${path}" is a folder, not a file`);
  }
};
