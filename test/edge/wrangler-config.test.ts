import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { edgeEntries } from '../../scripts/edge-bundle.ts';
import { startLocalIdp } from '../../scripts/local-idp.ts';
import { createTestDatabase } from '../rig/databases.ts';
import { freePort } from '../rig/postgres-server.ts';

const wrangler = readFileSync('wrangler.toml', 'utf8');
const environments = [...wrangler.matchAll(/^\[env\.([a-z-]+)\]$/gm)].map((m) => m[1]!);

describe('wrangler.toml', () => {
  it('has one environment per edge entry, each with its own main, route and settings', () => {
    const entries = edgeEntries();
    expect([...environments].sort()).toEqual(entries.map((e) => e.group).sort());
    for (const { group, main } of entries) {
      const section = wrangler.split(`[env.${group}]`)[1]!.split(/^\[env\.(?!.*\.vars\])/m)[0]!;
      expect(section).toContain(`main = "${main}"`);
      expect(section).toMatch(/routes = \[/);
      expect(wrangler).toContain(`[env.${group}.vars]`);
    }
  });

  it('binds Hyperdrive as HYPERDRIVE in every resource group (the storage service has no database)', () => {
    for (const { group } of edgeEntries().filter((e) => e.group !== 'storage')) {
      expect(wrangler).toMatch(new RegExp(`\\[\\[env\\.${group}\\.hyperdrive\\]\\]\\nbinding = "HYPERDRIVE"\\nid = "`));
    }
  });

  it('gives every environment a build step of its own, building its own bundle (the top-level one refuses)', () => {
    for (const group of environments) {
      const section = wrangler.split(`[env.${group}]`)[1]!.split(/^\[/m)[0]!;
      expect(section, group).toMatch(new RegExp(`^build = \\{ command = "npm run build:edge -- ${group}" \\}$`, 'm'));
    }
  });

  it('refuses `wrangler deploy` without --env, naming every environment', async () => {
    const run = promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', 'dist/wrangler-dry-run-no-env'], {
      env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
      timeout: 180_000,
    });
    const failure = (await run.then(
      () => undefined,
      (error: unknown) => error,
    )) as { stdout: string; stderr: string } | undefined;
    expect(failure).toBeDefined();
    const printed = `${failure!.stdout}${failure!.stderr}`;
    expect(printed).toContain('name one with --env');
    for (const group of environments) expect(printed).toContain(group);
    expect(printed).not.toContain('--dry-run: exiting now');
  }, 180_000);

  it('runs `wrangler dev --env registrars` with deploy/wrangler-dev.env alone (its database and IDP addresses aside)', async () => {
    const database = await createTestDatabase();
    const account = { clientId: 'wrangler-dev', clientSecret: 'wrangler-dev-secret' };
    const settings = readFileSync('deploy/wrangler-dev.env', 'utf8');
    const idp = await startLocalIdp({
      audience: /^AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE=(.*)$/m.exec(settings)![1]!,
      appClient: { clientId: 'credential-support-service', clientSecret: 'local-web-client-secret', redirectUris: ['http://localhost:8787/auth/callback'] },
      serviceAccounts: [account],
    });
    // Hyperdrive insists on a password in the URL; the test server ignores it (trust authentication).
    const withPassword = (url: string) => Object.assign(new URL(url), { password: new URL(url).password || 'unused' }).toString();
    const dir = await mkdtemp(join(tmpdir(), 'css-wrangler-dev-'));
    const envFile = join(dir, 'wrangler-dev.env');
    await writeFile(
      envFile,
      settings
        .replace(/^(CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE)=.*$/m, `$1=${withPassword(database.url)}`)
        .replace(/^(AUTH_OIDC_ISSUER)=.*$/m, `$1=${idp.issuer}`),
    );
    const port = await freePort();
    const child = spawn('npx', ['wrangler', 'dev', '--env', 'registrars', '--env-file', envFile, '--ip', '127.0.0.1', '--port', String(port)], {
      env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let printed = '';
    child.stdout!.on('data', (d) => (printed += d));
    child.stderr!.on('data', (d) => (printed += d));
    try {
      for (let waited = 0; !printed.includes('Ready on') && waited < 1_500; waited += 1) {
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(printed).toContain('Ready on');
      const token = await idp.clientCredentialsToken(account.clientId, account.clientSecret);
      const created = await fetch(`http://127.0.0.1:${port}/api/v1/registrars`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'GS1', namespace: 'gs1', url: 'https://www.gs1.org' }),
      });
      expect(created.status, printed).toBe(201);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/registrars`)).status).toBe(401);
    } finally {
      // npx and wrangler and its workerd: the process group this test started.
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
      await idp.close();
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);

  /** `wrangler deploy --dry-run` of one environment: what it prints. */
  const dryRun = async (env: string) =>
    (
      await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--env', env, '--outdir', `dist/wrangler-dry-run-${env}`], {
        env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
        timeout: 180_000,
      })
    ).stdout;

  it('builds a deployable bundle with wrangler (dry run)', async () => {
    const stdout = await dryRun('registrars');
    expect(stdout).toContain('--dry-run: exiting now');
    expect(stdout).toContain('env.AUTH_OIDC_ISSUER');
    expect(stdout).toContain('env.HYPERDRIVE');
    expect(stdout).toContain('dist/edge/registrars.js');
  }, 180_000);

  it('deploys the credential records (without issuance) from our bundle on the credentials path, with its own chunks (dry run)', async () => {
    const stdout = await dryRun('credential-records');
    expect(stdout).toContain('--dry-run: exiting now');
    expect(stdout).toContain('dist/edge/credential-records.js');
    // Its modules loaded on first use (scripts/edge-bundle.ts) are uploaded with it, and no other group's.
    const chunks = readdirSync('dist/edge').filter((f) => f.startsWith('credential-records.chunk-'));
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(stdout).toContain(chunk);
    expect(stdout).toContain(`Total (${chunks.length} modules)`);
    expect(stdout).toContain('env.HYPERDRIVE');
    expect(wrangler.split('[env.credential-records]')[1]!.split(/^\[/m)[0]).toContain('pattern = "credentials.example.com/api/v1/credentials/*"');
  }, 180_000);

  it('deploys the storage service from our bundle (its build runs first; dry run)', async () => {
    const stdout = await dryRun('storage');
    expect(stdout).toContain('dist/edge/storage.js');
    expect(stdout).toContain('--dry-run: exiting now');
    expect(stdout).toContain('env.STORAGE_TYPE');
  }, 180_000);

  it('deploys the VC service from our bundle, its secrets set per environment (dry run)', async () => {
    const stdout = await dryRun('vc');
    expect(stdout).toContain('dist/edge/vc.js');
    expect(stdout).toContain('--dry-run: exiting now');
    expect(stdout).toContain('env.PUBLIC_URL');
    expect(stdout).toContain('env.HYPERDRIVE');
  }, 180_000);
});
