import type { MiddlewareHandler } from 'hono';
import { metrics } from '../../core/metrics/recorder.ts';

/** Times every request into the metrics recorder by the route pattern it matched (a no-op unless a Node entry installed one). */
export const recordHttpMetrics: MiddlewareHandler = async (c, next) => {
  const started = performance.now();
  try {
    await next();
  } finally {
    const route = c.req.routePath === '/*' || c.req.routePath === '*' ? 'unmatched' : c.req.routePath;
    metrics().httpRequest(route, c.req.method, c.res.status, (performance.now() - started) / 1000);
  }
};
