import { spawn, type ChildProcess } from 'node:child_process';
import { npmStartArgs } from './npm-start.ts';

export interface Program {
  child: ChildProcess;
  /** The exit code once it has exited. */
  exited: Promise<number | null>;
  /** What it has printed so far. */
  output(): { stdout: string; stderr: string };
}

/**
 * One of the project's entry scripts (`functions/server.ts`, `consumers/worker.ts`,
 * `storage-service/server.ts`) as its own process, with only `env` (plus PATH and HOME) as its
 * environment, as an operator would start it: with the node flags of its npm start script.
 */
export const runProgram = (script: string, env: Record<string, string>): Program => {
  const child = spawn(process.execPath, npmStartArgs(script), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
};
