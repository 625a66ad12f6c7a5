import { describe, expect, it } from 'vitest';
import { cacheMaxEntries, readDocumentSettings } from './document-settings.ts';
import { readWebSettings } from './web-settings.ts';
import { readWorkerSettings } from './worker-settings.ts';

const roles = {
  web: (env: Record<string, string>, warn: (m: string) => void) =>
    readWebSettings({ RI_APP_URL: 'http://localhost:3003', AUTH_OIDC_ISSUER: 'http://localhost:3005', DATA_ENCRYPTION_KEY: 'ab'.repeat(32), ...env }, warn).documents,
  worker: (env: Record<string, string>, warn: (m: string) => void) =>
    readWorkerSettings({ RI_APP_URL: 'http://localhost:3003', DATA_ENCRYPTION_KEY: 'ab'.repeat(32), ...env }, warn).documents,
};

describe.each(Object.entries(roles))('document settings in the %s role', (_role, read) => {
  it('defaults: one hour for both caches, 1000 entries, bundled artefacts on', () => {
    const warnings: string[] = [];
    expect(read({}, (m) => warnings.push(m))).toEqual({ schemaCacheTtlMs: 3_600_000, contextCacheTtlMs: 3_600_000, cacheMaxEntries: undefined, bundledArtefacts: true });
    expect(cacheMaxEntries(undefined)).toBe(1000);
    expect(warnings).toEqual([]);
  });

  it('reads non-negative finite TTLs, including 0 and fractions, and blank as the default', () => {
    const s = read({ SCHEMA_CACHE_TTL_MS: '0', CONTEXT_CACHE_TTL_MS: '1500.5', CACHE_MAX_ENTRIES: ' ' }, () => {});
    expect(s).toMatchObject({ schemaCacheTtlMs: 0, contextCacheTtlMs: 1500.5 });
    expect(cacheMaxEntries(s.cacheMaxEntries)).toBe(1000);
  });

  it.each(['-1', 'Infinity', 'soon', 'NaN'])('warns naming the setting and falls back to one hour for %s', (value) => {
    const warnings: string[] = [];
    const s = read({ SCHEMA_CACHE_TTL_MS: value, CONTEXT_CACHE_TTL_MS: value }, (m) => warnings.push(m));
    expect(s).toMatchObject({ schemaCacheTtlMs: 3_600_000, contextCacheTtlMs: 3_600_000 });
    expect(warnings.filter((w) => w.startsWith('SCHEMA_CACHE_TTL_MS'))).toHaveLength(1);
    expect(warnings.filter((w) => w.startsWith('CONTEXT_CACHE_TTL_MS'))).toHaveLength(1);
  });

  it('UNTP_BUNDLED_ARTEFACTS=false turns the fallback off; another value fails naming it', () => {
    expect(read({ UNTP_BUNDLED_ARTEFACTS: 'false' }, () => {}).bundledArtefacts).toBe(false);
    expect(read({ UNTP_BUNDLED_ARTEFACTS: 'true' }, () => {}).bundledArtefacts).toBe(true);
    expect(() => read({ UNTP_BUNDLED_ARTEFACTS: 'no' }, () => {})).toThrow(/UNTP_BUNDLED_ARTEFACTS must be one of true, false/);
  });
});

describe('CACHE_MAX_ENTRIES', () => {
  it('is kept as given when read and checked when a cache is built', () => {
    const s = readDocumentSettings({ CACHE_MAX_ENTRIES: '0' }, () => {});
    expect(s.cacheMaxEntries).toBe('0');
    expect(cacheMaxEntries('25')).toBe(25);
  });

  it.each(['0', '-3', '1.5', 'many', '1e3', '99999999999999999999'])('throws naming the setting for %s', (value) => {
    expect(() => cacheMaxEntries(value)).toThrow(/CACHE_MAX_ENTRIES must be a positive integer/);
  });
});
