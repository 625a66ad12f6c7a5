import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_PLACEHOLDER_KEY, readDataEncryptionKey } from './encryption-key.ts';
import { readWorkerSettings } from './worker-settings.ts';
import { readAllowPrivateUrls } from './fetch-settings.ts';
import { readWebSettings } from './web-settings.ts';

const base = {
  RI_APP_URL: 'http://localhost:3003',
  AUTH_OIDC_ISSUER: 'http://localhost:3005',
  DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
};

describe('DATA_ENCRYPTION_KEY', () => {
  it('accepts the development placeholder only in local development', () => {
    expect(readDataEncryptionKey({ DATA_ENCRYPTION_KEY: DEVELOPMENT_PLACEHOLDER_KEY })).toBe(DEVELOPMENT_PLACEHOLDER_KEY);
    expect(
      readDataEncryptionKey({ DATA_ENCRYPTION_KEY: DEVELOPMENT_PLACEHOLDER_KEY, DEPLOYMENT_ENVIRONMENT: 'local' }),
    ).toBe(DEVELOPMENT_PLACEHOLDER_KEY);
    expect(() =>
      readDataEncryptionKey({ DATA_ENCRYPTION_KEY: DEVELOPMENT_PLACEHOLDER_KEY.toUpperCase(), DEPLOYMENT_ENVIRONMENT: 'staging' }),
    ).toThrow(/development placeholder/);
  });

  it('refuses a 63- or 65-character key and a blank one', () => {
    expect(() => readDataEncryptionKey({ DATA_ENCRYPTION_KEY: 'a'.repeat(63) })).toThrow(/64 hexadecimal/);
    expect(() => readDataEncryptionKey({ DATA_ENCRYPTION_KEY: 'a'.repeat(65) })).toThrow(/64 hexadecimal/);
    expect(() => readDataEncryptionKey({ DATA_ENCRYPTION_KEY: '   ' })).toThrow(/required/);
  });
});

describe('DATA_ENCRYPTION_KEY_PREVIOUS (a key rotation under way)', () => {
  it('is absent unless set, and reaches the web and worker settings lower-cased when set', () => {
    expect(readWebSettings(base).previousDataEncryptionKey).toBeUndefined();
    const previous = 'CD'.repeat(32);
    expect(readWebSettings({ ...base, DATA_ENCRYPTION_KEY_PREVIOUS: previous }).previousDataEncryptionKey).toBe(previous.toLowerCase());
    expect(readWorkerSettings({ ...base, DATA_ENCRYPTION_KEY_PREVIOUS: previous }).previousDataEncryptionKey).toBe(previous.toLowerCase());
  });

  it('refuses a malformed previous key, and one equal to the current key, naming the setting', () => {
    expect(() => readWebSettings({ ...base, DATA_ENCRYPTION_KEY_PREVIOUS: 'a'.repeat(63) })).toThrow(/DATA_ENCRYPTION_KEY_PREVIOUS must be exactly 64/);
    expect(() => readWebSettings({ ...base, DATA_ENCRYPTION_KEY_PREVIOUS: 'AB'.repeat(32) })).toThrow(/DATA_ENCRYPTION_KEY_PREVIOUS must differ/);
  });
});

describe('FETCH_ALLOW_PRIVATE_URLS', () => {
  const warnings: string[] = [];
  const warn = (m: string) => warnings.push(m);
  it('is on only for exactly "true"', () => {
    expect(readAllowPrivateUrls({ FETCH_ALLOW_PRIVATE_URLS: 'true' }, warn)).toBe(true);
    for (const value of ['TRUE', '1', 'yes', ' true', '']) {
      expect(readAllowPrivateUrls({ FETCH_ALLOW_PRIVATE_URLS: value }, warn)).toBe(false);
    }
  });

  it('reads the legacy name with a warning and refuses both names together', () => {
    expect(readAllowPrivateUrls({ VERIFY_ALLOW_PRIVATE_URLS: 'true' }, warn)).toBe(true);
    expect(warnings.some((w) => w.includes('VERIFY_ALLOW_PRIVATE_URLS'))).toBe(true);
    expect(() =>
      readAllowPrivateUrls({ VERIFY_ALLOW_PRIVATE_URLS: 'true', FETCH_ALLOW_PRIVATE_URLS: 'false' }, warn),
    ).toThrow(/not both/);
  });
});

describe('readWebSettings', () => {
  it('applies documented defaults', () => {
    const s = readWebSettings(base);
    expect(s).toMatchObject({ maxPageLimit: 100, defaultPageLimit: 20, maxRequestBodyBytes: 5_242_880, allowPrivateUrls: false });
    expect(s.verifyBounds).toEqual({ ratePerMinute: 60, maxConcurrency: 16 });
    expect(readWebSettings({ ...base, VERIFY_RATE_LIMIT_PER_MINUTE: ' 5 ', VERIFY_MAX_CONCURRENCY: '2' }).verifyBounds).toEqual({ ratePerMinute: 5, maxConcurrency: 2 });
    expect(s.auth).toMatchObject({
      tenantMode: 'open',
      tenantClaimName: 'groups',
      tenantClaimFormat: 'array_first',
      serviceAccountAudience: 'credential-support-service',
      sessionMaxAgeSeconds: 28_800,
      sessionRefreshSeconds: 300,
      secureCookies: false,
    });
    expect(readWebSettings({ ...base, DEPLOYMENT_ENVIRONMENT: 'production' }).auth.secureCookies).toBe(true);
  });

  it.each([
    [{ MAX_REQUEST_BODY_BYTES: '1023' }, /MAX_REQUEST_BODY_BYTES must be at least 1024/],
    [{ MAX_REQUEST_BODY_BYTES: '5mb' }, /MAX_REQUEST_BODY_BYTES must be a non-negative integer/],
    [{ API_MAX_PAGE_LIMIT: '0' }, /API_MAX_PAGE_LIMIT must be at least 1/],
    [{ TENANT_CLAIM_FORMAT: 'csv' }, /TENANT_CLAIM_FORMAT must be one of/],
    [{ RI_APP_URL: 'https://user:pw@app.example.com' }, /RI_APP_URL must not contain a username/],
    [{ RI_APP_URL: '' }, /RI_APP_URL is required/],
    [{ AUTH_OIDC_ISSUER: 'ftp://idp' }, /AUTH_OIDC_ISSUER must use http or https/],
    [{ VERIFY_RATE_LIMIT_PER_MINUTE: '0' }, /VERIFY_RATE_LIMIT_PER_MINUTE must be at least 1/],
    [{ VERIFY_RATE_LIMIT_PER_MINUTE: '1.5' }, /VERIFY_RATE_LIMIT_PER_MINUTE must be a non-negative integer/],
    [{ VERIFY_MAX_CONCURRENCY: '0' }, /VERIFY_MAX_CONCURRENCY must be at least 1/],
    [{ VERIFY_MAX_CONCURRENCY: 'many' }, /VERIFY_MAX_CONCURRENCY must be a non-negative integer/],
  ])('fails naming the setting for %j', (override, message) => {
    expect(() => readWebSettings({ ...base, ...override })).toThrow(message);
  });
});
