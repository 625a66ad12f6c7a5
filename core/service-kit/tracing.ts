import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';
import { ConfigError } from '../errors.ts';
import { readEnum, readInteger, readText, type EnvSource } from '../settings/env-readers.ts';
import { inRequestSpan, inService } from '../tracing/trace-context.ts';
import { routeOfPath } from './metrics-endpoint.ts';
import { registerServiceTracing } from './process-tracing.ts';

export interface Tracing {
  /** The `service.name` its spans carry. */
  serviceName: string;
  /** Flushes the spans not yet exported, then stops: called once on a clean stop. */
  shutdown(): Promise<void>;
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
const SAMPLERS = ['parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio', 'always_on', 'always_off', 'traceidratio'] as const;

/** OTEL_TRACES_SAMPLER (default `parentbased_always_on`) with OTEL_TRACES_SAMPLER_ARG, the ratio from 0 to 1 (default 1). */
const samplerOf = (env: EnvSource): Sampler => {
  const name = readEnum(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on');
  const ratioText = readText(env, 'OTEL_TRACES_SAMPLER_ARG') ?? '1';
  const ratio = Number(ratioText);
  if (!/^\d+(\.\d+)?$/.test(ratioText) || ratio > 1) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${ratioText}"`);
  const root = name.endsWith('always_on') ? new AlwaysOnSampler() : name.endsWith('always_off') ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
};

/** The OTEL_BSP_* batch settings of the OpenTelemetry specification (the SDK's defaults when unset). */
const batchOptionsOf = (env: EnvSource) => {
  const optional = (name: string) => (readText(env, name) === undefined ? undefined : readInteger(env, name, 0));
  return {
    maxQueueSize: optional('OTEL_BSP_MAX_QUEUE_SIZE'),
    scheduledDelayMillis: optional('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: optional('OTEL_BSP_EXPORT_TIMEOUT'),
    maxExportBatchSize: optional('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  };
};

/**
 * OpenTelemetry traces of a Node process (web, worker, storage and VC services), exported over OTLP HTTP to
 * OTEL_EXPORTER_OTLP_ENDPOINT (`<endpoint>/v1/traces`) as OTEL_EXPORTER_OTLP_PROTOCOL says (`http/protobuf`,
 * the default, or `http/json`), with W3C trace context propagation. Unset endpoint: nothing is started.
 * The process's SDK starts once (core/service-kit/process-tracing.ts); each service of the process has its
 * own `service.name`.
 */
export const startTracing = (env: EnvSource, serviceName: string): Tracing | undefined => {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf';
  if (!PROTOCOLS.includes(protocol as (typeof PROTOCOLS)[number])) {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL must be one of ${PROTOCOLS.join(', ')}, got "${protocol}"`);
  }
  const sampler = samplerOf(env);
  const batchOptions = batchOptionsOf(env);
  const url = `${endpoint.replace(/\/+$/, '')}/v1/traces`;
  const exporter = protocol === 'http/json' ? new JsonTraceExporter({ url }) : new ProtobufTraceExporter({ url });
  return { serviceName, ...registerServiceTracing(serviceName, { sampler, processor: new BatchSpanProcessor({ exporter, ...batchOptions }) }) };
};

type FetchHandler = (request: Request, ...rest: never[]) => Response | Promise<Response>;

/**
 * A service's fetch with a server span per request continuing the caller's `traceparent`, the request's work
 * that of `tracing`'s service (its spans under its `service.name`); unchanged when tracing is off.
 */
export const withTracing = <F extends FetchHandler>(fetch: F, tracing: Tracing | undefined): F => {
  if (!tracing) return fetch;
  return (async (request: Request, ...rest: never[]) =>
    (await inService(tracing.serviceName, () =>
      inRequestSpan(request.headers, request.method, async () => fetch(request, ...rest), () => routeOfPath(new URL(request.url).pathname)),
    ))!) as F;
};
