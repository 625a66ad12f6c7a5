import { ConfigError } from '../errors.ts';

/** Environment as a plain record: process.env on Node, bindings on edge runtimes. */
export type EnvSource = Record<string, string | undefined>;

/** Unset and blank values mean "use the default". */
export const readText = (env: EnvSource, name: string): string | undefined => {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
};

export const readInteger = (
  env: EnvSource,
  name: string,
  fallback: number,
  bounds: { min?: number; max?: number } = {},
): number => {
  const raw = readText(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new ConfigError(`${name} is too large`);
  if (bounds.min !== undefined && value < bounds.min) throw new ConfigError(`${name} must be at least ${bounds.min}`);
  if (bounds.max !== undefined && value > bounds.max) throw new ConfigError(`${name} must be at most ${bounds.max}`);
  return value;
};

export const readEnum = <T extends string>(env: EnvSource, name: string, allowed: readonly T[], fallback: T): T => {
  const raw = readText(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
};

/** Flags that are on only when set to exactly `true`; any other value keeps them off. */
export const readExactTrue = (env: EnvSource, name: string): boolean => env[name] === 'true';

export const readHttpUrl = (env: EnvSource, name: string, fallback?: string): string => {
  const raw = readText(env, name) ?? fallback;
  if (raw === undefined) throw new ConfigError(`${name} is required`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must use http or https`);
  if (url.username || url.password) throw new ConfigError(`${name} must not contain a username or password`);
  return raw.replace(/\/+$/, '');
};

/** A positive finite number (fractions allowed), e.g. an age limit in seconds. */
export const readPositiveNumber = (env: EnvSource, name: string, fallback: number): number => {
  const raw = readText(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(value) || value <= 0) {
    throw new ConfigError(`${name} must be a positive number, got "${raw}"`);
  }
  return value;
};
