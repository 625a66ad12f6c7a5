import type { DepsSettings } from '../deps.ts';
import { readDataEncryptionKeys } from './encryption-key.ts';
import type { EnvSource } from './env-readers.ts';
import { readAllowPrivateUrls } from './fetch-settings.ts';

/** The operator CLI needs only what the core deps need; the database comes from RI_DATABASE_URL / RI_POSTGRES_*. */
export const readCliSettings = (env: EnvSource, warn: (message: string) => void): DepsSettings => ({
  ...readDataEncryptionKeys(env),
  allowPrivateUrls: readAllowPrivateUrls(env, warn),
});
