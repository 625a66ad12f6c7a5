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

/** Waits (bounded) until the program has printed `text`; throws with what it printed if it exits or `seconds` pass first. */
export const untilPrinted = async (program: Program, text: string, seconds: number): Promise<void> => {
  for (let waited = 0; waited < seconds * 10; waited += 1) {
    if (program.output().stdout.includes(text)) return;
    if (program.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { stdout, stderr } = program.output();
  throw new Error(`did not print ${JSON.stringify(text)}:\n${stdout}\n${stderr}`);
};

/** Stops a program that still runs (SIGTERM) and waits for it to exit. */
export const stopProgram = async (program: Program | undefined): Promise<void> => {
  if (program && program.child.exitCode === null) {
    program.child.kill('SIGTERM');
    await program.exited;
  }
};

/**
 * Waits until a server process answers `healthUrl` with a 2xx: undefined then, else why it will not (it
 * exited, or `seconds` passed). Another server's answer on the port (a 404 from a test server that took
 * it first, so ours exits with EADDRINUSE) is not taken for this one's.
 */
export const untilHealthy = async (child: ChildProcess, healthUrl: string, seconds = 30): Promise<string | undefined> => {
  for (let attempt = 0; attempt < seconds * 10; attempt += 1) {
    if (child.exitCode !== null || child.signalCode !== null) return `it exited (${child.exitCode ?? child.signalCode})`;
    try {
      if ((await fetch(healthUrl, { signal: AbortSignal.timeout(2_000) })).ok) return undefined;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return `no answer from ${healthUrl} in ${seconds} s`;
};
