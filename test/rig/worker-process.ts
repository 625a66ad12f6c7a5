import { runProgram, type Program } from './program.ts';
import { testWorkerEnv } from './jobs.ts';

export interface WorkerProcess {
  program: Program;
  /** The JSON log lines it has printed so far. */
  logs(): { level: string; message: string; [field: string]: unknown }[];
  /** Sends `signal` and waits for the exit code (null after SIGKILL). */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * The worker program (`consumers/worker.ts`, every consumer, the spec's timings) as its own process
 * over `databaseUrl`, started and waited for ("Worker started" logged). `env` adds settings, e.g.
 * WORKER_JOB_TIMEOUT_SECONDS or BATCH_JOB_CONCURRENCY.
 *
 * `signal` is the test's (vitest aborts it when the test times out): vitest then runs the hooks while
 * the test's body goes on, so once it is aborted no worker starts and every worker started under it is
 * killed at once, also one still starting. A test past its bound leaves no worker behind.
 */
export const startWorkerProcess = async (databaseUrl: string, env: Record<string, string> = {}, signal?: AbortSignal): Promise<WorkerProcess> => {
  signal?.throwIfAborted();
  const program = runProgram('consumers/worker.ts', { LOG_LEVEL: 'info', ...testWorkerEnv(databaseUrl, env) });
  const logs = () =>
    program
      .output()
      .stdout.split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  const stop = async (killSignal: NodeJS.Signals) => {
    if (program.child.exitCode === null && program.child.signalCode === null) program.child.kill(killSignal);
    return program.exited;
  };
  const killOnAbort = () => void stop('SIGKILL');
  signal?.addEventListener('abort', killOnAbort, { once: true });
  void program.exited.then(() => signal?.removeEventListener('abort', killOnAbort));
  for (let i = 0; !program.output().stdout.includes('"Worker started"'); i++) {
    if (signal?.aborted || program.child.exitCode !== null || i > 600) {
      await stop('SIGKILL');
      signal?.throwIfAborted();
      throw new Error(`the worker did not start: ${program.output().stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { program, logs, stop };
};
