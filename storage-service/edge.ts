import { ConfigError } from '../core/errors.ts';
import { createLogger, parseLogLevel } from '../core/logging/logger.ts';
import { readText, type EnvSource } from '../core/settings/env-readers.ts';
import { buildStorageApp } from './app.ts';
import { S3Store } from './backends/s3-store.ts';
import { readStorageSettings } from './settings.ts';

type StorageApp = ReturnType<typeof buildStorageApp>;

/**
 * The storage service as an edge function (wrangler env `storage`): the same app over the S3
 * backend (an edge runtime has no disk), with the S3 credentials taken from the bindings
 * `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`). Settings, the S3 client
 * and the app live as long as the isolate. A setting that is missing or wrong answers every request
 * with a 500 naming it, as the Node entry would refuse to start.
 */
const connect = (env: EnvSource): StorageApp => {
  const settings = readStorageSettings(env, () => {});
  if (settings.storageType !== 's3') throw new ConfigError('STORAGE_TYPE must be s3 on an edge runtime (there is no local disk)');
  const accessKeyId = readText(env, 'AWS_ACCESS_KEY_ID');
  const secretAccessKey = readText(env, 'AWS_SECRET_ACCESS_KEY');
  if (!accessKeyId || !secretAccessKey) throw new ConfigError('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are required on an edge runtime');
  const sessionToken = readText(env, 'AWS_SESSION_TOKEN');
  const store = S3Store.connect({ ...settings.s3, credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } });
  return buildStorageApp({ settings, store, logger: createLogger(parseLogLevel(env.LOG_LEVEL)) });
};

let isolate: { env: EnvSource; app: StorageApp } | { env: EnvSource; error: string } | undefined;

export default {
  fetch(request: Request, env: EnvSource): Response | Promise<Response> {
    if (isolate?.env !== env) {
      try {
        isolate = { env, app: connect(env) };
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        isolate = { env, error: error.message };
      }
    }
    if ('error' in isolate) return Response.json({ message: `The storage service is misconfigured: ${isolate.error}` }, { status: 500 });
    return isolate.app.fetch(request);
  },
};
