import { AlwaysOnSampler, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { inService, inSpan, traceHeaders } from '../tracing/trace-context.ts';
import { registerServiceTracing, startProcessTracing } from './process-tracing.ts';

/**
 * Several services in one process (as `npm start` runs them): the SDK starts once, each service's spans go
 * to its own provider (its `service.name`), work marked by no service goes to the first one registered, and
 * a name registered twice shares one provider until both registrations stop.
 */
const servicePipeline = () => {
  const exporter = new InMemorySpanExporter();
  return { exporter, pipeline: { sampler: new AlwaysOnSampler(), processor: new SimpleSpanProcessor({ exporter }) } };
};
/** Finished spans as `service.name span name`, once the processor has handed them over. */
const names = async (service: ReturnType<typeof servicePipeline>) => {
  await service.pipeline.processor.forceFlush();
  return spanNames(service.exporter);
};
const spanNames = (exporter: InMemorySpanExporter) => exporter.getFinishedSpans().map((span) => `${span.resource.attributes['service.name']} ${span.name}`);

describe('process tracing', () => {
  it('starts the SDK once and gives each service its spans under its own service.name', async () => {
    const web = servicePipeline();
    const vc = servicePipeline();
    const webTracing = registerServiceTracing('web', web.pipeline);
    expect(startProcessTracing()).toBe(false);
    const vcTracing = registerServiceTracing('vc', vc.pipeline);

    let carried: Record<string, string> = {};
    await inService('web', () =>
      inSpan('issuance', async () => {
        carried = traceHeaders();
        await inService('vc', () => inSpan('sign', async () => {}));
      }),
    );
    await inSpan('unmarked', async () => {});
    expect(carried.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(await names(web)).toEqual(['web issuance', 'web unmarked']);
    expect(await names(vc)).toEqual(['vc sign']);
    // The VC service's span is a child of the web's, though each went to its own provider.
    const [issuance] = web.exporter.getFinishedSpans();
    const [sign] = vc.exporter.getFinishedSpans();
    expect(sign!.parentSpanContext?.spanId).toBe(issuance!.spanContext().spanId);
    expect(sign!.spanContext().traceId).toBe(issuance!.spanContext().traceId);

    // The same name again shares the provider: the first stop leaves it recording, the second ends it.
    const again = registerServiceTracing('vc', servicePipeline().pipeline);
    await vcTracing.shutdown();
    await inService('vc', () => inSpan('after one stop', async () => {}));
    expect(await names(vc)).toEqual(['vc sign', 'vc after one stop']);
    await again.shutdown();
    // A service no longer registered: its work goes to the first service still there.
    await inService('vc', () => inSpan('after both stops', async () => {}));
    expect(await names(web)).toEqual(['web issuance', 'web unmarked', 'web after both stops']);
    await webTracing.shutdown();
  });
});
