import { ConfigError } from '../errors.ts';
import { DEVELOPMENT_PLACEHOLDER_KEY, isLocalDevelopment } from '../service-kit/deployment.ts';
import type { EnvSource } from './env-readers.ts';

export { DEVELOPMENT_PLACEHOLDER_KEY, isLocalDevelopment };

/** Validates DATA_ENCRYPTION_KEY: required, 64 hex characters, not the placeholder outside local. */
export const readDataEncryptionKey = (env: EnvSource): string => {
  const key = env.DATA_ENCRYPTION_KEY?.trim();
  if (!key) throw new ConfigError('DATA_ENCRYPTION_KEY is required (64 hexadecimal characters)', 'ENCRYPTION_KEY_MISSING');
  if (!/^[0-9a-fA-F]{64}$/.test(key)) {
    throw new ConfigError('DATA_ENCRYPTION_KEY must be exactly 64 hexadecimal characters', 'ENCRYPTION_KEY_MALFORMED');
  }
  if (key.toLowerCase() === DEVELOPMENT_PLACEHOLDER_KEY && !isLocalDevelopment(env)) {
    throw new ConfigError(
      `DATA_ENCRYPTION_KEY is the development placeholder, refused when DEPLOYMENT_ENVIRONMENT is "${env.DEPLOYMENT_ENVIRONMENT}"`,
      'ENCRYPTION_KEY_PLACEHOLDER',
    );
  }
  return key.toLowerCase();
};

/**
 * DATA_ENCRYPTION_KEY_PREVIOUS: set only while a rotation is under way (README "Rotating
 * DATA_ENCRYPTION_KEY"), so values still sealed under the old key keep opening. Unset: undefined.
 */
export const readPreviousDataEncryptionKey = (env: EnvSource, current: string): string | undefined => {
  const key = env.DATA_ENCRYPTION_KEY_PREVIOUS?.trim();
  if (!key) return undefined;
  if (!/^[0-9a-fA-F]{64}$/.test(key)) {
    throw new ConfigError('DATA_ENCRYPTION_KEY_PREVIOUS must be exactly 64 hexadecimal characters', 'ENCRYPTION_KEY_MALFORMED');
  }
  if (key.toLowerCase() === current) {
    throw new ConfigError('DATA_ENCRYPTION_KEY_PREVIOUS must differ from DATA_ENCRYPTION_KEY', 'ENCRYPTION_KEY_MALFORMED');
  }
  return key.toLowerCase();
};

/** DATA_ENCRYPTION_KEY and, during a rotation, DATA_ENCRYPTION_KEY_PREVIOUS. */
export const readDataEncryptionKeys = (env: EnvSource): { dataEncryptionKey: string; previousDataEncryptionKey?: string } => {
  const dataEncryptionKey = readDataEncryptionKey(env);
  const previousDataEncryptionKey = readPreviousDataEncryptionKey(env, dataEncryptionKey);
  return previousDataEncryptionKey ? { dataEncryptionKey, previousDataEncryptionKey } : { dataEncryptionKey };
};
