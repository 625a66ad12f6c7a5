import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.ts';
import { runProgram } from '../test/rig/program.ts';
import { readStorageSettings } from './settings.ts';

describe('storage service settings', () => {
  it('refuses to start without API_KEY: the process exits 1 with a one-line reason', async () => {
    expect(() => readStorageSettings({})).toThrow(ConfigError);
    const run = runProgram('storage-service/server.ts', { PORT: '0' });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toContain('API_KEY is required');
  });

  it('defaults as the upstream service; DEFAULT_BUCKET joins the available buckets', () => {
    const warnings: string[] = [];
    const settings = readStorageSettings({ API_KEY: 'k', DEFAULT_BUCKET: 'extra' }, (w) => warnings.push(w));
    expect(settings).toMatchObject({
      port: 3334,
      publicUrl: 'http://localhost:3334',
      buckets: ['documents', 'files', 'extra'],
      storageType: 'local',
      localDirectory: 'uploads',
      localSyncIoMaxBytes: 65_536,
      maxUploadSize: 10_485_760,
      allowedUploadTypes: ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'],
    });
    expect(warnings).toHaveLength(1);
  });

  it('rejects malformed settings with a reason naming them', () => {
    expect(() => readStorageSettings({ API_KEY: 'k', PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => readStorageSettings({ API_KEY: 'k', MAX_UPLOAD_SIZE: '-5' })).toThrow(/MAX_UPLOAD_SIZE/);
    expect(() => readStorageSettings({ API_KEY: 'k', STORAGE_TYPE: 'gcp' })).toThrow(/STORAGE_TYPE/);
    expect(() => readStorageSettings({ API_KEY: 'k', LOCAL_SYNC_IO_MAX_BYTES: '2097152' })).toThrow(/LOCAL_SYNC_IO_MAX_BYTES/);
    expect(readStorageSettings({ API_KEY: 'k', LOCAL_SYNC_IO_MAX_BYTES: '0' }).localSyncIoMaxBytes).toBe(0);

    expect(() => readStorageSettings({ API_KEY: 'k', STORAGE_TYPE: 's3' })).toThrow(/S3_REGION/);
    expect(readStorageSettings({ API_KEY: 'k', STORAGE_TYPE: 's3', S3_ENDPOINT: 'http://minio:9000' }).s3).toEqual({
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });
});
