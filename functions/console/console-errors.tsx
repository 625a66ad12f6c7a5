import type { ErrorHandler } from 'hono';
import { describeUnexpectedError } from '../../core/db-errors.ts';
import { ApiError } from '../../core/errors.ts';
import { unexpectedErrorMessage } from '../platform/error-handler.ts';
import type { ConsoleEnv } from './console-env.ts';
import { renderPage } from './layout.tsx';

const TITLES: Record<number, string> = { 400: 'Not accepted', 403: 'Not allowed', 404: 'Not found', 409: 'Conflict', 413: 'Too large', 422: 'Not accepted' };

/**
 * Errors as console pages: the API's message (a foreign id reads exactly like a missing one, as in the API);
 * anything unexpected is logged and shown only with its correlation id.
 */
export const consoleError: ErrorHandler<ConsoleEnv> = (err, c) => {
  if (err instanceof ApiError && err.status < 500) {
    const status = err.status === 401 ? 403 : err.status;
    const shown = (status in TITLES ? status : 400) as 400 | 403 | 404 | 409 | 422;
    return renderPage(c, TITLES[shown] ?? 'Not accepted', <p class="notice bad" role="alert">{err.message}</p>, shown);
  }
  const correlationId = c.get('correlationId');
  c.get('services')?.logger.error('Unhandled console error', { correlationId, path: c.req.path, method: c.req.method, ...describeUnexpectedError(err) });
  const message = err instanceof ApiError && err.status === 502 ? err.message : unexpectedErrorMessage(correlationId);
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error · Credential console</title></head><body><main><h1>Something went wrong</h1><p>${escapeText(message)}</p></main></body></html>`, err instanceof ApiError ? err.status : 500);
};

const escapeText = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
