import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carried it, with its resource's `service.name` and `process.pid`. */
export interface ReceivedSpan {
  service: string;
  pid?: number;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

export interface Receiver {
  url: string;
  spans: ReceivedSpan[];
  contentTypes: string[];
  close(): Promise<void>;
}

const bodyOf = (request: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
  });

type Attribute = { key: string; value?: { stringValue?: string; intValue?: string | number } };

/** OTLP/HTTP trace receiver on loopback: keeps the spans of JSON exports, and every export's content type. */
export const startReceiver = async (): Promise<Receiver> => {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    contentTypes.push(String(request.headers['content-type']));
    if (request.url === '/v1/traces' && String(request.headers['content-type']).startsWith('application/json')) {
      const parsed = JSON.parse(body.toString('utf8'));
      for (const resource of parsed.resourceSpans ?? []) {
        const attributes: Attribute[] = resource.resource?.attributes ?? [];
        const service = attributes.find((a) => a.key === 'service.name')?.value?.stringValue ?? '';
        const pidValue = attributes.find((a) => a.key === 'process.pid')?.value?.intValue;
        const pid = pidValue === undefined ? undefined : Number(pidValue);
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({ service, pid, name: span.name, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined });
          }
        }
      }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
};
