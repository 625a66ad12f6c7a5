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
