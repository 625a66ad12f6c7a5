import type { EnvSource } from '../settings/env-readers.ts';

/**
 * The development placeholder key, published in this repository. Accepted only in local development
 * (DEPLOYMENT_ENVIRONMENT unset or `local`), so a deployment that forgot to set a real key fails at
 * boot instead of running weakly. Here (a service-kit leaf) because the main API's DATA_ENCRYPTION_KEY
 * and the VC service's KEY_ENCRYPTION_KEY both refuse it.
 */
export const DEVELOPMENT_PLACEHOLDER_KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

export const isLocalDevelopment = (env: EnvSource): boolean => {
  const value = env.DEPLOYMENT_ENVIRONMENT?.trim();
  return value === undefined || value === '' || value === 'local';
};
