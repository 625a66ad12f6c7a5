import { spawn } from 'node:child_process';
import { API_KEY } from './vc-harness.ts';

/** `vc-service/rotate-key-encryption-key.ts` as an operator runs it, with only `env` (plus PATH, HOME and the API key) as settings. */
export const rotateProgram = (args: string[], env: Record<string, string>) =>
  spawn(process.execPath, ['--import', 'tsx', 'vc-service/rotate-key-encryption-key.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', API_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** The rotation command run to its end: exit code and output. */
export const runRotate = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = rotateProgram(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
