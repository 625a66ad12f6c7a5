import type { MiddlewareHandler } from 'hono';
import { inRequestSpan, tracingStarted } from '../../core/tracing/trace-context.ts';

/** A server span per request, continuing the caller's `traceparent`, named by the matched route; nothing when tracing is off. */
export const traceRequest: MiddlewareHandler = async (c, next) => {
  if (!tracingStarted()) return next();
  await inRequestSpan(c.req.raw.headers, c.req.method, () => next(), () => c.req.routePath);
};
