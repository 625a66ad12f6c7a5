import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { runProgram } from '../test/rig/program.ts';
import { DEVELOPMENT_PLACEHOLDER_KEY } from '../core/service-kit/deployment.ts';
import { readVcSettings } from './settings.ts';

const required = { API_KEY: 'k'.repeat(32), DATABASE_URL: 'postgres://x@127.0.0.1/db', KEY_ENCRYPTION_KEY: 'ab'.repeat(32) };

describe('VC service settings', () => {
  it('refuses to start without API_KEY: the process exits 1 with a one-line reason', async () => {
    expect(() => readVcSettings({})).toThrow(ConfigError);
    const run = runProgram('vc-service/server.ts', { PORT: '0' });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain('API_KEY is required');
  });

  it('refuses an API_KEY shorter than 32 characters', () => {
    expect(() => readVcSettings({ ...required, API_KEY: 'k' })).toThrow(/API_KEY must be at least 32 characters/);
    expect(() => readVcSettings({ ...required, API_KEY: 'k'.repeat(31) })).toThrow(/at least 32/);
    expect(readVcSettings({ ...required, API_KEY: 'k'.repeat(32) }).apiKey).toBe('k'.repeat(32));
  });

  it('refuses the published development KEY_ENCRYPTION_KEY outside local development', () => {
    const placeholder = { ...required, KEY_ENCRYPTION_KEY: DEVELOPMENT_PLACEHOLDER_KEY };
    expect(readVcSettings(placeholder).keyEncryptionKey).toEqual(Buffer.from(DEVELOPMENT_PLACEHOLDER_KEY, 'hex'));
    expect(readVcSettings({ ...placeholder, DEPLOYMENT_ENVIRONMENT: 'local' }).keyEncryptionKey).toHaveLength(32);
    for (const environment of ['production', 'staging']) {
      expect(() => readVcSettings({ ...placeholder, DEPLOYMENT_ENVIRONMENT: environment })).toThrow(/published development key, refused when DEPLOYMENT_ENVIRONMENT is "/);
      expect(() => readVcSettings({ ...placeholder, KEY_ENCRYPTION_KEY: DEVELOPMENT_PLACEHOLDER_KEY.toUpperCase(), DEPLOYMENT_ENVIRONMENT: environment })).toThrow(/development key/);
    }
    expect(readVcSettings({ ...required, DEPLOYMENT_ENVIRONMENT: 'production' }).keyEncryptionKey).toHaveLength(32);
  });

  it('requires a database URL and a 64-hex key-encryption key', () => {
    expect(() => readVcSettings({ ...required, DATABASE_URL: '' })).toThrow(/DATABASE_URL/);
    for (const key of [undefined, 'ab'.repeat(31), 'zz'.repeat(32), 'ab'.repeat(33)]) {
      expect(() => readVcSettings({ ...required, KEY_ENCRYPTION_KEY: key })).toThrow(/KEY_ENCRYPTION_KEY must be 64 hex/);
    }
  });

  it('defaults: port 3332, public URL from it, did:web cache 300 s, private DID hosts refused', () => {
    expect(readVcSettings(required)).toMatchObject({
      port: 3332,
      publicUrl: 'http://localhost:3332',
      didCacheSeconds: 300,
      allowPrivateDidHosts: false,
      keyEncryptionKey: Buffer.from('ab'.repeat(32), 'hex'),
    });
    expect(readVcSettings({ ...required, PUBLIC_URL: 'https://vc.example.com/', DID_ALLOW_PRIVATE_HOSTS: 'true' })).toMatchObject({
      publicUrl: 'https://vc.example.com',
      allowPrivateDidHosts: true,
    });
    expect(() => readVcSettings({ ...required, PUBLIC_URL: 'ftp://x' })).toThrow(/PUBLIC_URL/);
    expect(() => readVcSettings({ ...required, DID_CACHE_SECONDS: '-1' })).toThrow(/DID_CACHE_SECONDS/);
  });
});
