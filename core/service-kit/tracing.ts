import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ConfigError } from '../errors.ts';
import { inRequestSpan, markTracingStarted } from '../tracing/trace-context.ts';
import { routeOfPath } from './metrics-endpoint.ts';

export interface Tracing {
  /** Flushes the spans not yet exported, then stops: called once on a clean stop. */
  shutdown(): Promise<void>;
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/**
 * OpenTelemetry traces of a Node process (web, worker, storage and VC services), exported over OTLP HTTP to
 * OTEL_EXPORTER_OTLP_ENDPOINT (`<endpoint>/v1/traces`) as OTEL_EXPORTER_OTLP_PROTOCOL says (`http/protobuf`,
 * the default, or `http/json`), with W3C trace context propagation. Unset endpoint: nothing is started.
 */
export const startTracing = (env: Record<string, string | undefined>, serviceName: string): Tracing | undefined => {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf';
  if (!PROTOCOLS.includes(protocol as (typeof PROTOCOLS)[number])) {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL must be one of ${PROTOCOLS.join(', ')}, got "${protocol}"`);
  }
  const url = `${endpoint.replace(/\/+$/, '')}/v1/traces`;
  const traceExporter = protocol === 'http/json' ? new JsonTraceExporter({ url }) : new ProtobufTraceExporter({ url });
  const sdk = new NodeSDK({ serviceName, traceExporter, instrumentations: [] });
  sdk.start();
  markTracingStarted();
  return { shutdown: () => sdk.shutdown() };
};

type FetchHandler = (request: Request, ...rest: never[]) => Response | Promise<Response>;

/** A service's fetch with a server span per request continuing the caller's `traceparent`; unchanged when tracing is off. */
export const withTracing = <F extends FetchHandler>(fetch: F, tracing: Tracing | undefined): F => {
  if (!tracing) return fetch;
  return (async (request: Request, ...rest: never[]) =>
    (await inRequestSpan(request.headers, request.method, async () => fetch(request, ...rest), () => routeOfPath(new URL(request.url).pathname)))!) as F;
};
