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
 */
export const startWorkerProcess = async (databaseUrl: string, env: Record<string, string> = {}): Promise<WorkerProcess> => {
  const program = runProgram('consumers/worker.ts', { LOG_LEVEL: 'info', ...testWorkerEnv(databaseUrl, env) });
  const logs = () =>
    program
      .output()
      .stdout.split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  const stop = async (signal: NodeJS.Signals) => {
    if (program.child.exitCode === null && program.child.signalCode === null) program.child.kill(signal);
    return program.exited;
  };
  for (let i = 0; !program.output().stdout.includes('"Worker started"'); i++) {
    if (program.child.exitCode !== null || i > 600) {
      await stop('SIGKILL');
      throw new Error(`the worker did not start: ${program.output().stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { program, logs, stop };
};
