import { describe, expect, it } from 'vitest';
import { readStatusIssuanceSettings } from './status-settings.ts';

const read = (env: Record<string, string>) => {
  const warnings: string[] = [];
  return { settings: readStatusIssuanceSettings(env, (m) => warnings.push(m)), warnings };
};

describe('credential status issuance settings', () => {
  it('defaults: revocation, one purpose only, 2000 ms lock wait', () => {
    expect(read({})).toEqual({ settings: { defaultPurposes: ['revocation'], multiplePurposesEnabled: false, lockAcquireMs: 2000 }, warnings: [] });
  });

  it('CREDENTIAL_STATUS_LOCK_ACQUIRE_MS uses a leading positive integer; anything else warns and uses 2000', () => {
    expect(read({ CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: '250' }).settings.lockAcquireMs).toBe(250);
    expect(read({ CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: '250ms' }).settings.lockAcquireMs).toBe(250);
    for (const raw of ['0', '-5', 'soon', '.5']) {
      const { settings, warnings } = read({ CREDENTIAL_STATUS_LOCK_ACQUIRE_MS: raw });
      expect(settings.lockAcquireMs).toBe(2000);
      expect(warnings).toHaveLength(1);
    }
  });

  it('none alone gives no default purpose; two purposes need multiple purposes enabled', () => {
    expect(read({ CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'none' }).settings.defaultPurposes).toEqual([]);
    expect(
      read({ CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'suspension,revocation', CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'true' }).settings,
    ).toMatchObject({ defaultPurposes: ['suspension', 'revocation'], multiplePurposesEnabled: true });
    expect(() => read({ CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'suspension,revocation', CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'false' })).toThrow(
      /more than one purpose/,
    );
  });
});
