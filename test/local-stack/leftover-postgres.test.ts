import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, expect, it } from 'vitest';
import { freePort, startPostgres } from '../rig/postgres-server.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Starts the embedded server from a child process that is then SIGKILLed: its postgres outlives it. */
const orphanServer = async (dataDir: string, port: number) => {
  const program = `
    import { startPostgres } from ${JSON.stringify(join(import.meta.dirname, '../rig/postgres-server.ts'))};
    await startPostgres(undefined, { dataDir: ${JSON.stringify(dataDir)}, port: ${port}, persistent: true });
    console.log('ready');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
};

it('npm start comes back after a crash: a persistent data directory still held by a killed run is taken over', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'css-pg-leftover-'));
  dirs.push(dataDir);
  const port = await freePort();
  await orphanServer(dataDir, port);
  const leftover = postgres(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`, { max: 1 });
  await leftover`select 1`;
  await leftover.end();

  const server = await startPostgres(undefined, { dataDir, port, persistent: true });
  try {
    const sql = postgres(server.adminUrl, { max: 1 });
    expect((await sql`select 1 as one`)[0]).toEqual({ one: 1 });
    await sql.end();
  } finally {
    await server.stop();
  }
}, 90_000);
