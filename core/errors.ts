/**
 * Errors are values with a stable code. They are raised once, anywhere (domain, middleware, route),
 * and turned into the spec's error body by the one error handler in functions/platform.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 502 | 503;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly code?: string,
    /** Extra top-level members of the error body (e.g. `desync: true`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, code = 'VALIDATION_FAILED') => new ApiError(400, message, code);
export const notFound = (what: string) => new ApiError(404, `${what} not found`, 'NOT_FOUND');
/** A record referenced by a request field does not exist (or is another tenant's): 404 `field: what not found`. */
export const notFoundAt = (field: string, what: string, code = 'NOT_FOUND') => new ApiError(404, `${field}: ${what} not found`, code);
export const forbidden = (message: string, code = 'FORBIDDEN') => new ApiError(403, message, code);
export const conflict = (message: string, code = 'CONFLICT', extra?: Record<string, unknown>) =>
  new ApiError(409, message, code, extra);

/** A configuration problem found at boot: printed as one line, then the process exits non-zero. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly code = 'CONFIG_INVALID',
    /** The underlying failure (a parser's error, a file system error): printed as the cause chain at boot. */
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ConfigError';
  }
}
