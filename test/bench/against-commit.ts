import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { requestClientCredentialsToken } from '../../scripts/local-idp.ts';
import { startPostgres } from '../rig/postgres-server.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';
import { callJson, pairedRounds, startIdpProcess } from './lib.ts';
import { startProgram } from './service-processes.ts';
import { printSummary, recordedRatios } from './summary.ts';

/**
 * Before and after: the authenticated registrar and product reads of an earlier commit (default: the
 * wave-1 code, e71839e) against this checkout, each as its own web process (`npm run start:web`'s
 * command of each checkout, as deployed) on its own database, signing in with one OIDC provider in a third process; the load
 * generator is a fourth. Same fixtures on both, paired rounds in alternating order (lib.ts settings).
 *   node --import tsx test/bench/against-commit.ts [commit]
 * The earlier commit is checked out into a temporary git worktree and installed with `npm ci`.
 */
const commit = process.argv[2] ?? 'e71839e';
const repo = process.cwd();
const account = { clientId: 'compare-service', clientSecret: 'compare-service-secret' };

const run = (command: string, args: string[], cwd: string) => {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
};

/** The node flags of a checkout's `npm run start:web` (its heap flags, if it has any), as deployed. */
const startWebFlags = (cwd: string) => {
  const { scripts } = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [program, ...args] = (scripts['start:web'] ?? 'node --import tsx functions/server.ts').split(' ');
  if (program !== 'node' || args.slice(-3).join(' ') !== '--import tsx functions/server.ts') {
    throw new Error(`${cwd}: npm run start:web is not node [flags] --import tsx functions/server.ts`);
  }
  return args.slice(0, -3);
};

const startWeb = (cwd: string, databaseUrl: string, issuer: string) =>
  startProgram(
    'functions/server.ts',
    (url) => ({
      RI_DATABASE_URL: databaseUrl,
      RI_APP_URL: url,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      AUTH_OIDC_ISSUER: issuer,
      AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
      AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
      AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
    }),
    '/api/health',
    { cwd, nodeFlags: startWebFlags(cwd) },
  );

/** 40 registrars and 200 products, made through the API; returns the last registrar's id. */
const seed = async (url: string, token: string) => {
  let id = '';
  for (let i = 0; i < 40; i += 1) {
    const body = { name: `Registrar ${i}`, namespace: `compare-${i}`, url: `https://registrar-${i}.example.com` };
    id = (await callJson(`${url}/api/v1/registrars`, { method: 'POST', token, expect: 201, body })).id;
  }
  const products = Array.from({ length: 200 }, (_, i) => ({ name: `Product ${i}`, level: 'ITEM' }));
  await callJson(`${url}/api/v1/products`, { method: 'POST', token, expect: 201, body: products });
  return id;
};

const earlier = await mkdtemp(join(tmpdir(), 'css-compare-'));
const server = await startPostgres(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL);
const admin = postgres(server.adminUrl, { max: 1, onnotice: () => {} });
const names = ['before', 'now'].map((side) => `css_compare_${side}_${process.pid}`);
const stops: (() => Promise<void>)[] = [];
try {
  run('git', ['worktree', 'add', '--detach', earlier, commit], repo);
  console.log(`Installing ${commit} in ${earlier} (npm ci)…`);
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], earlier);
  for (const name of names) await admin.unsafe(`create database "${name}"`);
  const idp = await startIdpProcess({
    audience: TEST_AUDIENCE,
    appClient: { ...TEST_APP_CLIENT, redirectUris: ['http://127.0.0.1/auth/callback'] },
    serviceAccounts: [account],
  });
  stops.push(() => idp.close());
  const before = await startWeb(earlier, server.urlFor(names[0]!), idp.issuer);
  stops.push(() => before.stop());
  const now = await startWeb(repo, server.urlFor(names[1]!), idp.issuer);
  stops.push(() => now.stop());
  const token = await requestClientCredentialsToken(idp.issuer, account.clientId, account.clientSecret);
  const ids = { before: await seed(before.url, token), now: await seed(now.url, token) };
  await new Promise((resolve) => setTimeout(resolve, 2000)); // background start-up work settles

  const headers = { authorization: `Bearer ${token}` };
  for (const [label, path] of [
    ['GET /registrars/{id}', (side: 'before' | 'now') => `/api/v1/registrars/${ids[side]}`],
    ['GET /registrars?limit=20', () => '/api/v1/registrars?limit=20'],
    ['GET /products?limit=20', () => '/api/v1/products?limit=20'],
  ] as const) {
    await pairedRounds(
      `${label}: now against ${commit}`,
      { name: `${label} at ${commit}`, load: { url: `${before.url}${path('before')}`, headers } },
      [{ name: `${label} now`, load: { url: `${now.url}${path('now')}`, headers }, target: 1 }],
    );
  }
  printSummary(recordedRatios());
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  for (const name of names) await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
  await admin.end();
  await server.stop();
  run('git', ['worktree', 'remove', '--force', earlier], repo);
  await rm(earlier, { recursive: true, force: true });
}
