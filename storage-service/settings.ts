import { ConfigError } from '../core/errors.ts';
import { readEnum, readInteger, readText, type EnvSource } from '../core/settings/env-readers.ts';

export type StorageType = 'local' | 's3';

/** The storage service's settings (names and defaults as the upstream service, see README). */
export interface StorageSettings {
  apiKey: string;
  port: number;
  /** Origin (and optional path) that returned URIs start with. */
  publicUrl: string;
  buckets: string[];
  defaultBucket?: string;
  storageType: StorageType;
  localDirectory: string;
  /** Local objects up to this size are written and read without the thread pool; 0 turns that off. */
  localSyncIoMaxBytes: number;
  s3: { endpoint?: string; region: string; forcePathStyle: boolean };
  maxUploadSize: number;
  allowedUploadTypes: string[];
}

const list = (value: string | undefined, fallback: string[]) =>
  value === undefined ? fallback : value.split(',').map((v) => v.trim()).filter(Boolean);

export const readStorageSettings = (env: EnvSource, warn: (message: string) => void = console.warn): StorageSettings => {
  const apiKey = readText(env, 'API_KEY');
  if (!apiKey) throw new ConfigError('API_KEY is required: the key clients send in X-API-Key');
  const port = readInteger(env, 'PORT', 3334, { min: 1, max: 65535 });
  const publicUrl = (readText(env, 'PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got ${publicUrl}`);
  }
  const buckets = list(readText(env, 'AVAILABLE_BUCKETS'), ['documents', 'files']);
  const defaultBucket = readText(env, 'DEFAULT_BUCKET');
  if (defaultBucket && !buckets.includes(defaultBucket)) {
    warn(`DEFAULT_BUCKET ${defaultBucket} is not in AVAILABLE_BUCKETS; added`);
    buckets.push(defaultBucket);
  }
  const endpoint = readText(env, 'S3_ENDPOINT');
  const storageType = readEnum(env, 'STORAGE_TYPE', ['local', 's3'] as const, 'local');
  const region = readText(env, 'S3_REGION') ?? (endpoint ? 'us-east-1' : undefined);
  if (storageType === 's3' && !region) throw new ConfigError('S3_REGION is required when S3_ENDPOINT is not set');
  return {
    apiKey,
    port,
    publicUrl,
    buckets,
    defaultBucket,
    storageType,
    localDirectory: readText(env, 'LOCAL_DIRECTORY') ?? 'uploads',
    localSyncIoMaxBytes: readInteger(env, 'LOCAL_SYNC_IO_MAX_BYTES', 65_536, { min: 0, max: 1_048_576 }),
    s3: { endpoint, region: region ?? 'us-east-1', forcePathStyle: readText(env, 'S3_FORCE_PATH_STYLE') === 'true' },
    maxUploadSize: readInteger(env, 'MAX_UPLOAD_SIZE', 10_485_760, { min: 1, max: Number.MAX_SAFE_INTEGER }),
    allowedUploadTypes: list(readText(env, 'ALLOWED_UPLOAD_TYPES'), ['image/png', 'image/jpeg', 'image/webp', 'application/pdf']),
  };
};
