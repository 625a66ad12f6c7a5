import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { runProgram } from '../test/rig/program.ts';
import { readVcSettings } from './settings.ts';

const required = { API_KEY: 'k', DATABASE_URL: 'postgres://x@127.0.0.1/db', KEY_ENCRYPTION_KEY: 'ab'.repeat(32) };

describe('VC service settings', () => {
  it('refuses to start without API_KEY: the process exits 1 with a one-line reason', async () => {
    expect(() => readVcSettings({})).toThrow(ConfigError);
    const run = runProgram('vc-service/server.ts', { PORT: '0' });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain('API_KEY is required');
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
