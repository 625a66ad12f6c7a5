import { describe, expect, it } from 'vitest';
import { runProgram } from '../../test/rig/program.ts';
import { TEST_ENCRYPTION_KEY } from '../../test/rig/test-settings.ts';

/** The web entry as an operator starts it: a bad verify bound stops it before it touches the database. */
const baseEnv = {
  RI_APP_URL: 'http://127.0.0.1:3003',
  AUTH_OIDC_ISSUER: 'http://127.0.0.1:9',
  RI_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
  DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
};

describe('web boot refuses invalid verify bounds with one line naming the setting', () => {
  it.each([
    [{ VERIFY_RATE_LIMIT_PER_MINUTE: '0' }, 'VERIFY_RATE_LIMIT_PER_MINUTE must be at least 1 [CONFIG_INVALID]'],
    [{ VERIFY_MAX_CONCURRENCY: 'lots' }, 'VERIFY_MAX_CONCURRENCY must be a non-negative integer, got "lots" [CONFIG_INVALID]'],
  ])('%j', async (env, message) => {
    const run = runProgram('functions/server.ts', { ...baseEnv, ...env });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr.trim().split('\n')).toEqual([`Web boot failed: ${message}`]);
  });
});
