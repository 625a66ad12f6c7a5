import { spawn } from 'node:child_process';
import { runCli } from '../../cli/main.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The CLI in its own process, only `env` (plus PATH and HOME) as settings: `cli/main.ts` under this
 * Node, or with `viaBin` as an operator types it, `npx css-operator …` (slower: npm starts first).
 */
export const spawnCli = (args: string[], env: Record<string, string> = {}, viaBin = false) =>
  new Promise<CliResult>((resolve) => {
    const [command, prefix] = viaBin ? ['npx', ['css-operator']] : [process.execPath, ['--import', 'tsx', 'cli/main.ts']];
    const child = spawn(command as string, [...(prefix as string[]), ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });

/** The same program run in this process (`runCli`, what the bin calls), for argument rules an OS argv cannot carry (NUL). */
export const runCliHere = async (args: string[], env: Record<string, string> = {}): Promise<CliResult> => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, env, { out: (t) => (stdout += t), err: (t) => (stderr += t) });
  return { code, stdout, stderr };
};

/** The operator's database settings as RI_POSTGRES_* parts of a database url. */
export const postgresParts = (databaseUrl: string): Record<string, string> => {
  const url = new URL(databaseUrl);
  return {
    RI_POSTGRES_HOST: url.hostname,
    RI_POSTGRES_PORT: url.port || '5432',
    RI_POSTGRES_USER: decodeURIComponent(url.username),
    ...(url.password ? { RI_POSTGRES_PASSWORD: decodeURIComponent(url.password) } : {}),
    RI_POSTGRES_DB: url.pathname.slice(1),
  };
};

/** The JSON log lines a run wrote on stderr (other stderr lines are skipped). */
export const logLines = (stderr: string): Record<string, unknown>[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
