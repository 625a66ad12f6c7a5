import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/rig/databases.ts';
import { TEST_ENCRYPTION_KEY } from '../test/rig/test-settings.ts';

/** The CLI as an operator runs it: its own process, only `env` (plus PATH and HOME) as settings. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });

describe('css-operator', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('--help lists the registered commands and exits 0', async () => {
    const result = await cli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: css-operator');
    expect(result.stdout).toContain('check-settings');
  });

  it('an unknown command or no command is a usage error: exit 2', async () => {
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    expect((await cli([])).code).toBe(2);
  });

  it('check-settings: a bad setting fails with one line naming it and exit 1', async () => {
    const result = await cli(['check-settings'], { DATA_ENCRYPTION_KEY: 'short', RI_DATABASE_URL: database.url });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'css-operator: DATA_ENCRYPTION_KEY must be exactly 64 hexadecimal characters [ENCRYPTION_KEY_MALFORMED]',
    ]);
  });

  it('check-settings: the database answers and the key opens its data → exit 0; another key → exit 1', async () => {
    const ok = await cli(['check-settings'], { DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, RI_DATABASE_URL: database.url });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('Settings valid');
    expect(ok.code).toBe(0);
    const wrong = await cli(['check-settings'], { DATA_ENCRYPTION_KEY: 'f'.repeat(64), RI_DATABASE_URL: database.url });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('DATA_ENCRYPTION_KEY cannot decrypt existing data [ENCRYPTION_KEY_MISMATCH]');
  });
});
