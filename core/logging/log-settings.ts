import { ConfigError } from '../errors.ts';
import type { EnvSource } from '../settings/env-readers.ts';
import { parseLogLevel, type LogLevel } from './logger.ts';
import { parseRedactPaths, type RedactPath } from './redact-paths.ts';

export interface LogSettings {
  level: LogLevel;
  redact: RedactPath[];
}

/** LOG_LEVEL and LOG_REDACT_PATHS; an invalid LOG_REDACT_PATHS fails boot like any other setting. */
export const readLogSettings = (env: EnvSource): LogSettings => {
  const parsed = parseRedactPaths(env.LOG_REDACT_PATHS);
  if ('invalid' in parsed) throw new ConfigError(parsed.invalid);
  return { level: parseLogLevel(env.LOG_LEVEL), redact: parsed.paths };
};
