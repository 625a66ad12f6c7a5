import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { edgeEntries } from '../../scripts/edge-bundle.ts';

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
