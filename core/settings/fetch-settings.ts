import { ConfigError } from '../errors.ts';
import type { EnvSource } from './env-readers.ts';

/**
 * FETCH_ALLOW_PRIVATE_URLS: exactly `true` lifts the public-address rule. The legacy name
 * VERIFY_ALLOW_PRIVATE_URLS is still read (with a warning); setting both names is refused.
 */
export const readAllowPrivateUrls = (env: EnvSource, warn: (message: string) => void): boolean => {
  const current = env.FETCH_ALLOW_PRIVATE_URLS;
  const legacy = env.VERIFY_ALLOW_PRIVATE_URLS;
  if (current !== undefined && legacy !== undefined) {
    throw new ConfigError('Set FETCH_ALLOW_PRIVATE_URLS or the legacy VERIFY_ALLOW_PRIVATE_URLS, not both');
  }
  if (legacy !== undefined) {
    warn('VERIFY_ALLOW_PRIVATE_URLS is deprecated; use FETCH_ALLOW_PRIVATE_URLS');
    return legacy === 'true';
  }
  return current === 'true';
};
