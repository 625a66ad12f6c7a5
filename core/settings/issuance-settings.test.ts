import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.ts';
import { readIdempotencyStaleClaimMinutes, readIssuanceSettings } from './issuance-settings.ts';
import { readWebSettings } from './web-settings.ts';
import { readWorkerSettings } from './worker-settings.ts';

const base = { RI_APP_URL: 'http://localhost:3003', AUTH_OIDC_ISSUER: 'http://localhost:3005', DATA_ENCRYPTION_KEY: 'ab'.repeat(32) };
const failsNaming = (read: () => unknown, name: string) => {
  expect(read).toThrow(ConfigError);
  expect(read).toThrow(name);
};

describe('issuance settings', () => {
  it('defaults: revocation only, one purpose per credential, 10 tags of up to 64 characters, claims stale after 10 minutes', () => {
    const settings = readWebSettings(base);
    expect(settings.issuance).toEqual({ defaultStatusPurposes: ['revocation'], multipleStatusPurposes: false, maxTagsPerRecord: 10, maxTagLength: 64 });
    expect(settings.idempotencyStaleClaimMinutes).toBe(10);
  });

  it('CREDENTIAL_STATUS_DEFAULT_PURPOSES: a comma list, or none alone (with a warning)', () => {
    expect(readIssuanceSettings({ CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'suspension' }).defaultStatusPurposes).toEqual(['suspension']);
    expect(
      readIssuanceSettings({ CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'revocation, suspension', CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'true' }).defaultStatusPurposes,
    ).toEqual(['revocation', 'suspension']);
    const warnings: string[] = [];
    expect(readIssuanceSettings({ CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'none' }, (m) => warnings.push(m)).defaultStatusPurposes).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('CREDENTIAL_STATUS_DEFAULT_PURPOSES=none')]);
  });

  it('fails boot naming the variable for an unknown, repeated or disallowed purpose list', () => {
    for (const value of ['expiry', 'revocation,revocation', 'none,revocation', 'revocation,suspension', 'revocation,']) {
      failsNaming(() => readWebSettings({ ...base, CREDENTIAL_STATUS_DEFAULT_PURPOSES: value }), 'CREDENTIAL_STATUS_DEFAULT_PURPOSES');
    }
  });

  it('fails boot naming the variable for a flag other than true/false or a bad number', () => {
    failsNaming(() => readWebSettings({ ...base, CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'yes' }), 'CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED');
    failsNaming(() => readWebSettings({ ...base, API_MAX_TAGS_PER_RECORD: '0' }), 'API_MAX_TAGS_PER_RECORD');
    failsNaming(() => readWebSettings({ ...base, API_MAX_TAG_LENGTH: 'long' }), 'API_MAX_TAG_LENGTH');
    failsNaming(() => readWebSettings({ ...base, IDEMPOTENCY_STALE_CLAIM_MINUTES: '0' }), 'IDEMPOTENCY_STALE_CLAIM_MINUTES');
    expect(readIdempotencyStaleClaimMinutes({ IDEMPOTENCY_STALE_CLAIM_MINUTES: '30' })).toBe(30);
  });

  it('the worker reads the same issuance settings (batch items issue as single requests do)', () => {
    const env = { ...base, CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'suspension', API_MAX_TAGS_PER_RECORD: '3' };
    expect(readWorkerSettings(env).issuance).toEqual(readWebSettings(env).issuance);
    failsNaming(() => readWorkerSettings({ ...base, CREDENTIAL_STATUS_DEFAULT_PURPOSES: 'expiry' }), 'CREDENTIAL_STATUS_DEFAULT_PURPOSES');
  });
});
