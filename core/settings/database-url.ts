import { ConfigError } from '../errors.ts';
import { readText, type EnvSource } from './env-readers.ts';

/** RI_DATABASE_URL, else a URL built from the RI_POSTGRES_* parts (also used by the operator CLI). */
export const readDatabaseUrl = (env: EnvSource): string => {
  const url = readText(env, 'RI_DATABASE_URL');
  if (url) return url;
  const host = readText(env, 'RI_POSTGRES_HOST');
  if (!host) throw new ConfigError('RI_DATABASE_URL or RI_POSTGRES_HOST is required');
  const user = encodeURIComponent(readText(env, 'RI_POSTGRES_USER') ?? 'postgres');
  const password = readText(env, 'RI_POSTGRES_PASSWORD');
  const db = encodeURIComponent(readText(env, 'RI_POSTGRES_DB') ?? 'postgres');
  const port = readText(env, 'RI_POSTGRES_PORT') ?? '5432';
  const auth = password ? `${user}:${encodeURIComponent(password)}` : user;
  return `postgres://${auth}@${host}:${port}/${db}`;
};
