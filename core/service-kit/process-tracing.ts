import { context, diag, DiagLogLevel, ProxyTracerProvider, trace, type Context, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { defaultResource, detectResources, envDetector, hostDetector, processDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { TracerProvider as SdkTracerProvider, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Logger } from '../logging/logger.ts';
import { markTracingStarted, serviceOf } from '../tracing/trace-context.ts';

/**
 * The OpenTelemetry SDK of a Node process, started once however many of our services the process runs
 * (`npm start` runs the web API, the worker, the VC and the storage services together). The SDK's resource,
 * and so `service.name`, belongs to a tracer provider, not to a tracer: each service gets a tracer provider of
 * its own (its resource, its exporter), and the one provider the process registers hands every span to the
 * provider of the service whose work is running (`inService`), else to the first service registered.
 */
interface ProcessTracing {
  sdk: NodeSDK;
  /** By service name; `users`: how many registrations share it (two entries of a process under one OTEL_SERVICE_NAME). */
  providers: Map<string, { provider: SdkTracerProvider; users: number }>;
}

let running: ProcessTracing | undefined;

const noopTracer = new ProxyTracerProvider().getTracer('noop');

/** A tracer whose spans go to the tracer of the service the span's context belongs to. */
const routedTracer = (pick: (ctx: Context) => Tracer): Tracer => ({
  startSpan: (name, options, ctx = context.active()) => pick(ctx).startSpan(name, options, ctx),
  startActiveSpan: ((...args: unknown[]) => {
    const ctx = args.length >= 4 ? (args[2] as Context | undefined) ?? context.active() : context.active();
    return (pick(ctx).startActiveSpan as (...a: unknown[]) => unknown)(...args);
  }) as Tracer['startActiveSpan'],
});

const routingProvider = (tracing: ProcessTracing): TracerProvider => ({
  getTracer: (name, version, options) =>
    routedTracer((ctx) => {
      const named = serviceOf(ctx);
      const registered = (named && tracing.providers.get(named)) || tracing.providers.values().next().value;
      return registered ? registered.provider.getTracer(name, version, options) : noopTracer;
    }),
});

/**
 * Starts the process's SDK unless it runs already (W3C trace context propagation, the async context manager,
 * the routing tracer provider); `logger` receives the SDK's own warnings (a collector that refuses spans).
 * Returns false when it was running already.
 */
export const startProcessTracing = (logger?: Logger): boolean => {
  if (running) return false;
  const tracing: ProcessTracing = { sdk: new NodeSDK({ spanProcessors: [], instrumentations: [], autoDetectResources: false }), providers: new Map() };
  if (logger) {
    const warn = (message: string, ...args: unknown[]) => logger.warn(`OpenTelemetry: ${message}`, args.length > 0 ? { details: args.map(String) } : undefined);
    diag.setLogger({ error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
  }
  tracing.sdk.start();
  trace.setGlobalTracerProvider(routingProvider(tracing));
  markTracingStarted();
  running = tracing;
  logger?.info('OpenTelemetry SDK started', { pid: process.pid });
  return true;
};

/**
 * The service `serviceName`'s tracer provider in this process's SDK (started here when it is not yet): its
 * spans, sampled by `sampler` and handed to `processor` (its exporter). A second registration of one name
 * shares the first's provider (`processor` unused).
 */
export const registerServiceTracing = (serviceName: string, pipeline: { sampler: Sampler; processor: SpanProcessor }): { shutdown(): Promise<void> } => {
  startProcessTracing();
  const tracing = running!;
  let registered = tracing.providers.get(serviceName);
  if (registered) {
    registered.users += 1;
    void pipeline.processor.shutdown();
  } else {
    const resource = defaultResource()
      .merge(detectResources({ detectors: [envDetector, processDetector, hostDetector] }))
      .merge(resourceFromAttributes({ 'service.name': serviceName }));
    registered = { provider: new SdkTracerProvider({ resource, sampler: pipeline.sampler, spanProcessors: [pipeline.processor] }), users: 1 };
    tracing.providers.set(serviceName, registered);
  }
  const mine = registered;
  let stopped = false;
  return {
    shutdown: async () => {
      if (stopped) return;
      stopped = true;
      mine.users -= 1;
      if (mine.users > 0) return mine.provider.forceFlush();
      if (tracing.providers.get(serviceName) === mine) tracing.providers.delete(serviceName);
      await mine.provider.shutdown();
      if (tracing.providers.size === 0) await tracing.sdk.shutdown();
    },
  };
};
