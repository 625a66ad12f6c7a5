import { redactPaths, type RedactPath } from './redact-paths.ts';

/** JSON-lines logger with secret masking: nothing named like a secret ever reaches a log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const SECRET_NAME = /(secret|password|api[-_]?key|token|authorization|cookie|decryption[-_]?key|private[-_]?key)/i;

/** Deep copy with every value under a secret-looking key replaced by `***`. */
export const maskSecrets = (value: unknown, depth = 0): unknown => {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_NAME.test(k) && v != null ? '***' : maskSecrets(v, depth + 1)]),
  );
};

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /** Fields of every line (the worker's `service.name`). */
  base?: Record<string, unknown>;
  /** LOG_REDACT_PATHS: fields replaced by `[Redacted]` (core/logging/redact-paths.ts). */
  redact?: readonly RedactPath[];
}

export const createLogger = (
  level: LogLevel = 'info',
  write: (line: string) => void = (l) => console.log(l),
  options: LoggerOptions = {},
): Logger => {
  const emit = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    const masked = redactPaths(maskSecrets(fields), options.redact ?? []) as object;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...options.base, ...masked }));
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
};

/** `service.name` on every line of a process: OTEL_SERVICE_NAME, else the process's own default. */
export const serviceNameOf = (env: Record<string, string | undefined>, fallback: string): string => env.OTEL_SERVICE_NAME?.trim() || fallback;

export const parseLogLevel = (raw: string | undefined): LogLevel =>
  raw === 'debug' || raw === 'warn' || raw === 'error' ? raw : 'info';
