import { readFile, stat } from 'node:fs/promises';
import { readHeartbeatMaxAgeSeconds, readHeartbeatPath } from '../core/settings/worker-settings.ts';

/**
 * Container healthcheck of the worker: unhealthy when the heartbeat file is missing, older than
 * WORKER_HEARTBEAT_MAX_AGE_SECONDS, or dated in the future. Exit 0 healthy, 1 unhealthy.
 */
export const checkHeartbeat = async (path: string, maxAgeSeconds: number, now = Date.now()): Promise<string | undefined> => {
  let written: number;
  try {
    await stat(path);
    written = Date.parse((await readFile(path, 'utf8')).trim());
  } catch {
    return `heartbeat file ${path} is missing`;
  }
  if (Number.isNaN(written)) return `heartbeat file ${path} is unreadable`;
  if (written > now + 1000) return `heartbeat file ${path} is dated in the future`;
  if (now - written > maxAgeSeconds * 1000) return `heartbeat is ${Math.round((now - written) / 1000)} s old`;
  return undefined;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  let problem: string | undefined;
  try {
    problem = await checkHeartbeat(readHeartbeatPath(process.env), readHeartbeatMaxAgeSeconds(process.env));
  } catch (error) {
    problem = (error as Error).message;
  }
  if (problem) console.error(`unhealthy: ${problem}`);
  process.exit(problem ? 1 : 0);
}
