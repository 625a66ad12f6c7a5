import { ConfigError } from '../core/errors.ts';
import { apiKeyProblem } from '../core/service-kit/api-key.ts';
import { DEVELOPMENT_PLACEHOLDER_KEY, isLocalDevelopment } from '../core/service-kit/deployment.ts';
import { readExactTrue, readHttpUrl, readInteger, readText, type EnvSource } from '../core/settings/env-readers.ts';

/** The VC service's settings (README table). */
export interface VcSettings {
  apiKey: string;
  port: number;
  databaseUrl: string;
  /** 32 bytes (from 64 hex) that encrypt the Ed25519 private keys at rest. */
  keyEncryptionKey: Buffer;
  /** KEY_ENCRYPTION_KEY_PREVIOUS: only while a rotation is under way (README "Rotating KEY_ENCRYPTION_KEY"). */
  previousKeyEncryptionKey?: Buffer;
  /** Origin the service is reached at: the base of status-list URLs. */
  publicUrl: string;
  /** Seconds another did:web document fetched over HTTPS is reused. */
  didCacheSeconds: number;
  /** Only for local stacks and tests: lets did:web resolution reach private and loopback hosts. */
  allowPrivateDidHosts: boolean;
}

export const readVcSettings = (env: EnvSource): VcSettings => {
  const apiKey = readText(env, 'API_KEY');
  const keyProblem = apiKeyProblem('API_KEY', apiKey);
  if (keyProblem) throw new ConfigError(`${keyProblem} (the Bearer token)`);
  const databaseUrl = readText(env, 'DATABASE_URL');
  if (!databaseUrl) throw new ConfigError('DATABASE_URL is required: the PostgreSQL database holding the vc_service schema');
  const hex = readText(env, 'KEY_ENCRYPTION_KEY');
  if (!hex || !/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new ConfigError('KEY_ENCRYPTION_KEY must be 64 hex characters (openssl rand -hex 32)');
  }
  if (hex.toLowerCase() === DEVELOPMENT_PLACEHOLDER_KEY && !isLocalDevelopment(env)) {
    throw new ConfigError(`KEY_ENCRYPTION_KEY is the published development key, refused when DEPLOYMENT_ENVIRONMENT is "${env.DEPLOYMENT_ENVIRONMENT}"`);
  }
  const previous = readText(env, 'KEY_ENCRYPTION_KEY_PREVIOUS');
  if (previous && (!/^[0-9a-fA-F]{64}$/.test(previous) || previous.toLowerCase() === hex.toLowerCase())) {
    throw new ConfigError('KEY_ENCRYPTION_KEY_PREVIOUS must be 64 hex characters and differ from KEY_ENCRYPTION_KEY');
  }
  const port = readInteger(env, 'PORT', 3332, { min: 0, max: 65535 });
  return {
    apiKey: apiKey!,
    port,
    databaseUrl,
    keyEncryptionKey: Buffer.from(hex, 'hex'),
    ...(previous ? { previousKeyEncryptionKey: Buffer.from(previous, 'hex') } : {}),
    publicUrl: readHttpUrl(env, 'PUBLIC_URL', `http://localhost:${port}`),
    didCacheSeconds: readInteger(env, 'DID_CACHE_SECONDS', 300, { min: 0, max: 86_400 }),
    allowPrivateDidHosts: readExactTrue(env, 'DID_ALLOW_PRIVATE_HOSTS'),
  };
};
