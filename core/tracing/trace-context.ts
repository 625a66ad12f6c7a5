import { context, createContextKey, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context } from '@opentelemetry/api';

/**
 * Spans and W3C trace context through the OpenTelemetry API only (Web-standard: it runs on edge runtimes).
 * Until a Node entry starts the SDK (core/service-kit/tracing.ts, when OTEL_EXPORTER_OTLP_ENDPOINT is set)
 * every call here is the API's no-op: no span is recorded and no header is added.
 */
const tracer = () => trace.getTracer('credential-support-service');

/** The W3C headers (`traceparent`, `tracestate`) of the active span, for a call to another of our services; `{}` when tracing is off. */
export const traceHeaders = (): Record<string, string> => {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
};

/** `fn` as a span named `name`, a child of the active span; an error marks the span failed and is rethrown. */
export const inSpan = <T>(name: string, fn: () => Promise<T>, attributes?: Attributes, kind: SpanKind = SpanKind.INTERNAL): Promise<T> =>
  tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });

/** `fn` under the trace context a carrier holds (request headers, a job payload's `traceparent`). */
export const underTraceContext = <T>(carrier: Record<string, unknown>, fn: () => T): T => {
  const headers: Record<string, string> = {};
  for (const key of ['traceparent', 'tracestate']) if (typeof carrier[key] === 'string') headers[key] = carrier[key] as string;
  return context.with(propagation.extract(context.active(), headers), fn);
};

/**
 * A server span for one request, continuing the caller's trace from its `traceparent`; `routeOf` names it
 * once the request is routed (`GET /api/v1/credentials/:id`).
 */
export const inRequestSpan = <T extends { status: number }>(
  headers: { get(name: string): string | null | undefined },
  method: string,
  work: () => Promise<T | void>,
  routeOf: () => string,
): Promise<T | void> =>
  underTraceContext({ traceparent: headers.get('traceparent') ?? undefined, tracestate: headers.get('tracestate') ?? undefined }, () =>
    tracer().startActiveSpan(method, { kind: SpanKind.SERVER }, async (span) => {
      try {
        return await work();
      } finally {
        span.updateName(`${method} ${routeOf()}`);
        span.end();
      }
    }),
  );

/** Which of the process's services the code running in a context belongs to (`npm start` runs them all in one process). */
const SERVICE = createContextKey('credential-support-service.service-name');

/** `fn` as the work of the service `serviceName`: its spans carry that `service.name` (core/service-kit/process-tracing.ts). */
export const inService = <T>(serviceName: string, fn: () => T): T => context.with(context.active().setValue(SERVICE, serviceName), fn);

/** The service a context's work belongs to (set by `inService`), undefined when none was set. */
export const serviceOf = (ctx: Context): string | undefined => ctx.getValue(SERVICE) as string | undefined;

let started = false;

/** Called by the Node entry that started the SDK: from then on requests get server spans. */
export const markTracingStarted = (): void => {
  started = true;
};

/** Whether this process records spans (off: the request middleware adds nothing, not even a no-op span). */
export const tracingStarted = (): boolean => started;
