import { describe, expect, it } from 'vitest';
import { runProgram } from '../../test/rig/program.ts';
import { TEST_ENCRYPTION_KEY } from '../../test/rig/test-settings.ts';
import { readStatusLockAcquireMs, readStatusOperationSettings } from './credential-status-settings.ts';
import { readWebSettings } from './web-settings.ts';

const base = { RI_APP_URL: 'http://localhost:3003', AUTH_OIDC_ISSUER: 'http://localhost:3005', DATA_ENCRYPTION_KEY: 'ab'.repeat(32) };

describe('credential status settings (web)', () => {
  it('defaults: mutation off, budget 30000, grace 5000, lock wait 2000', () => {
    expect(readWebSettings(base, () => {}).credentialStatus).toEqual({ mutationEnabled: false, operationBudgetMs: 30_000, reconcileGraceMs: 5_000, lockAcquireMs: 2000 });
  });

  it('CREDENTIAL_STATUS_MUTATION_ENABLED is exactly true or false; anything else fails boot naming it', () => {
    expect(readStatusOperationSettings({ CREDENTIAL_STATUS_MUTATION_ENABLED: 'true' }, () => {}).mutationEnabled).toBe(true);
    expect(readStatusOperationSettings({ CREDENTIAL_STATUS_MUTATION_ENABLED: 'false' }, () => {}).mutationEnabled).toBe(false);
    for (const value of ['TRUE', '1', 'yes']) {
      expect(() => readWebSettings({ ...base, CREDENTIAL_STATUS_MUTATION_ENABLED: value })).toThrow(/CREDENTIAL_STATUS_MUTATION_ENABLED/);
    }
  });

  it('budget and grace are integers in range; anything else fails boot naming the variable', () => {
    expect(readStatusOperationSettings({ CREDENTIAL_STATUS_OPERATION_BUDGET_MS: '1500', CREDENTIAL_STATUS_RECONCILE_GRACE_MS: '0' }, () => {})).toMatchObject({
      operationBudgetMs: 1500,
      reconcileGraceMs: 0,
    });
    for (const [name, value] of [
      ['CREDENTIAL_STATUS_OPERATION_BUDGET_MS', 'abc'],
      ['CREDENTIAL_STATUS_OPERATION_BUDGET_MS', '10'],
      ['CREDENTIAL_STATUS_OPERATION_BUDGET_MS', '-5'],
      ['CREDENTIAL_STATUS_RECONCILE_GRACE_MS', '1.5'],
      ['CREDENTIAL_STATUS_RECONCILE_GRACE_MS', '99999999'],
    ] as const) {
      expect(() => readWebSettings({ ...base, [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
    }
  });

  it('CREDENTIAL_STATUS_LOCK_ACQUIRE_MS uses a leading positive integer, else warns and uses 2000', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    expect(readStatusLockAcquireMs({ CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: '750' }, warn)).toBe(750);
    expect(readStatusLockAcquireMs({ CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: '1200ms' }, warn)).toBe(1200);
    expect(readStatusLockAcquireMs({ CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: '  ' }, warn)).toBe(2000);
    expect(warnings).toEqual([]);
    for (const value of ['0', 'soon', '-5', 'ms100']) expect(readStatusLockAcquireMs({ CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: value }, warn)).toBe(2000);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/CREDENTIAL_STATUS_LOCK_ACQUIRE_MS/);
  });
});

describe('web boot', () => {
  it('fails with one line naming an invalid status setting', async () => {
    // One process start is slow; the other variables' refusals are covered by the reader tests above.
    for (const [name, value] of [['CREDENTIAL_STATUS_MUTATION_ENABLED', 'yes']] as const) {
      const run = runProgram('functions/server.ts', {
        RI_APP_URL: 'http://127.0.0.1:3003',
        AUTH_OIDC_ISSUER: 'http://127.0.0.1:9',
        RI_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
        DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        [name]: value,
      });
      expect(await run.exited).toBe(1);
      const lines = run.output().stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Web boot failed: .*${name}`));
    }
  });
});
