import type { ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describeUnexpectedError } from '../../core/db-errors.ts';
import { ApiError } from '../../core/errors.ts';
import { assignCorrelationId } from './correlation-id.ts';
import type { AppEnv } from './env.ts';
import { settleUnreadBody } from './unread-body.ts';

const STATUS_CODES: Record<number, string> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'REQUEST_BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

export const unexpectedErrorMessage = (correlationId: string) =>
  `An unexpected error has occurred. If the issue persists, please contact support and quote correlation id "${correlationId}".`;

/** The one place errors become response bodies: `{ error, code? }`, and sanitised 500s. */
export const handleError: ErrorHandler<AppEnv> = async (err, c) => {
  // Taken before the handler (the platform's first step); only an error thrown before that takes it here.
  if (c.get('correlationId') === undefined) assignCorrelationId(c);
  const correlationId = c.get('correlationId');
  const status = err instanceof ApiError || err instanceof HTTPException ? err.status : 500;
  if (status === 413 || status === 415) await settleUnreadBody(c);
  if (err instanceof ApiError) {
    // An upstream service failed (502): the caller sees the code, operators need the line to find it.
    if (err.status === 502) {
      c.get('services')?.logger.warn('Upstream service failed', { correlationId, method: c.req.method, path: c.req.path, code: err.code, error: err.message });
    }
    if (typeof err.extra?.retryAfterSeconds === 'number') c.header('retry-after', String(err.extra.retryAfterSeconds));
    const body = { error: err.message, ...(err.code ? { code: err.code } : {}), ...err.extra };
    return c.json(body, err.status);
  }
  if (err instanceof HTTPException && err.status < 500) {
    const message = err.status === 415 ? 'Content-Type must be application/json' : err.message || 'Bad request';
    return c.json({ error: message, code: STATUS_CODES[err.status] ?? 'BAD_REQUEST' }, err.status);
  }
  const logger = c.get('services')?.logger;
  const detail = { correlationId, path: c.req.path, method: c.req.method, ...describeUnexpectedError(err) };
  if (logger) logger.error('Unhandled error', detail);
  else console.error(JSON.stringify({ level: 'error', message: 'Unhandled error', ...detail }));
  return c.json({ error: unexpectedErrorMessage(correlationId), code: 'INTERNAL_ERROR' }, 500);
};

export const handleNotFound: NotFoundHandler<AppEnv> = (c) =>
  c.json({ error: `No route for ${c.req.method} ${c.req.path}`, code: 'NOT_FOUND' }, 404);
