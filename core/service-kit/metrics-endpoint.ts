import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * `/metrics` in Prometheus text for every Node process (web, worker, storage and VC services): a registry
 * per process labelled with its service name, the process's default metrics, and the HTTP request
 * histogram. Served only when METRICS_BEARER_TOKEN is set, and only to that bearer.
 */
export const METRICS_PATH = '/metrics';

/** METRICS_BEARER_TOKEN: unset or blank, no process serves `/metrics` (a 404 as for any unknown path). */
export const readMetricsToken = (env: Record<string, string | undefined>): string | undefined => env.METRICS_BEARER_TOKEN?.trim() || undefined;

export const createMetricsRegistry = (serviceName: string): Registry => {
  const registry = new Registry();
  registry.setDefaultLabels({ service: serviceName });
  collectDefaultMetrics({ register: registry });
  return registry;
};

/** Requests by route pattern, method and status, with their latency (`_count` is the request count). */
export const httpRequestHistogram = (registry: Registry) =>
  new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests served, by route pattern, method and status, and their latency in seconds',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The answer to `GET /metrics` (401 without the bearer), or undefined for any other request or when no token is set. */
export const metricsResponse = async (request: Request, registry: Registry, token: string | undefined): Promise<Response | undefined> => {
  if (!token || !request.url.includes(METRICS_PATH) || new URL(request.url).pathname !== METRICS_PATH) return undefined;
  if (request.method !== 'GET') return new Response(null, { status: 405, headers: { allow: 'GET' } });
  const [scheme, given] = (request.headers.get('authorization') ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !given || !sameToken(given, token)) {
    return new Response('send Authorization: Bearer <METRICS_BEARER_TOKEN>\n', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
  }
  return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
};

/**
 * A route label from a path alone, for services whose routes are few: segments of lower-case words, API
 * versions (`v2`), `.well-known` and `did.json` stay, any other segment (ids, keys, DIDs' path parts with digits) becomes `:param`.
 */
export const routeOfPath = (pathname: string): string =>
  pathname
    .split('/')
    .slice(0, 6)
    .map((segment) => (segment === '' || /^[a-z][A-Za-z-]{0,39}$/.test(segment) || /^v\d{1,2}$/.test(segment) || segment === '.well-known' || segment === 'did.json' ? segment : ':param'))
    .join('/') || '/';

type FetchHandler = (request: Request, ...rest: never[]) => Response | Promise<Response>;

/**
 * A service's fetch with `/metrics` in front of it and every other request timed into the histogram by
 * `routeOfPath`; without a token, the fetch as it was (the storage and VC services; the web process records by its matched route pattern instead).
 */
export const withMetrics = <F extends FetchHandler>(fetch: F, registry: Registry, token: string | undefined): F => {
  if (!token) return fetch;
  const requests = httpRequestHistogram(registry);
  return (async (request: Request, ...rest: never[]) => {
    const served = await metricsResponse(request, registry, token);
    if (served) return served;
    const stop = requests.startTimer({ route: routeOfPath(new URL(request.url).pathname), method: request.method });
    try {
      const response = await fetch(request, ...rest);
      stop({ status: String(response.status) });
      return response;
    } catch (error) {
      stop({ status: '500' });
      throw error;
    }
  }) as F;
};
