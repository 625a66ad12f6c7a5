import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startBenchStack, type BenchStack } from '../bench/lib.ts';
import { startStorageProcess, startVcProcess, startWebProcess, STORAGE_API_KEY, STORAGE_BUCKETS, VC_API_KEY, type ServiceProcess } from '../bench/service-processes.ts';
import { issueBody, samplePayload, SAMPLES } from '../rig/credential-fixtures.ts';
import { freePort } from '../rig/postgres-server.ts';
import { runProgram } from '../rig/program.ts';
import { startWorkerProcess } from '../rig/worker-process.ts';
import { startReceiver, type Receiver, type ReceivedSpan } from './otlp-receiver.ts';

/**
 * OpenTelemetry traces across the four processes (web, worker, VC and storage services), exported to an
 * OTLP receiver run here: one issuance, and one batch item, each one trace with a span per step and the
 * services' server spans children of the calls that reached them.
 */
describe('traces across the web process, the worker, the VC and the storage services', () => {
  let receiver: Receiver;
  let stack: BenchStack;
  const processes: ServiceProcess[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
    stack = await startBenchStack();
  }, 120_000);
  afterAll(async () => {
    for (const process of processes) await process.stop();
    await stack?.close();
    await receiver?.close();
  });

  it('one issuance and one batch item are each one trace, with a span per step and parent links across the processes', async ({ signal }) => {
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    const vc = await startVcProcess(stack.databaseUrl, otel);
    processes.push(vc);
    const storage = await startStorageProcess(otel);
    processes.push(storage);
    const web = await startWebProcess({ databaseUrl: stack.databaseUrl, oidcIssuer: stack.issuer, vcUrl: vc.url, storageUrl: storage.url, env: otel });
    processes.push(web);
    const token = await stack.token();
    const api = `${web.url}/api/v1`;
    const { did } = await callJson(`${api}/dids`, { method: 'POST', token, expect: 201, body: { type: 'MANAGED', method: 'DID_WEB', alias: 'traced-issuer' } });
    const body = issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did));
    await callJson(`${api}/credentials`, { method: 'POST', token, expect: 201, body });
    const batch = await fetch(`${api}/credentials/batches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ items: [body] }),
    });
    expect(batch.status).toBe(202);
    const { batchId } = (await batch.json()) as { batchId: string };

    const worker = await startWorkerProcess(
      stack.databaseUrl,
      {
        ...otel,
        SYSTEM_VC_BASE_URL: vc.url,
        SYSTEM_VC_API_KEY: VC_API_KEY,
        SYSTEM_STORAGE_BASE_URL: storage.url,
        SYSTEM_STORAGE_API_KEY: STORAGE_API_KEY,
        SYSTEM_STORAGE_PUBLIC_BUCKET: STORAGE_BUCKETS.public,
        SYSTEM_STORAGE_PRIVATE_BUCKET: STORAGE_BUCKETS.private,
      },
      signal,
    );
    // Readiness, bounded: the worker logs the settlement.
    for (let i = 0; !worker.logs().some((line) => line.message === 'Batch settled' && line.batchId === batchId); i++) {
      if (i > 600) throw new Error(`the batch did not settle: ${JSON.stringify(worker.logs().slice(-5))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A clean stop flushes each process's spans.
    expect(await worker.stop('SIGTERM')).toBe(0);
    for (const process of processes.splice(0)) await process.stop();

    const { spans } = receiver;
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const parentOf = (span: ReceivedSpan) => (span.parentSpanId ? byId.get(span.parentSpanId) : undefined);
    const one = (predicate: (span: ReceivedSpan) => boolean, what: string) => {
      const found = spans.filter(predicate);
      expect(found, what).toHaveLength(1);
      return found[0]!;
    };

    // The single issuance: the request's server span, its steps, and the services' spans under the steps.
    const request = one((s) => s.service === 'credential-support-service' && s.name === 'POST /api/v1/credentials', 'issuance request span');
    const inIssuance = spans.filter((s) => s.traceId === request.traceId);
    const issuance = inIssuance.find((s) => s.name === 'issuance')!;
    expect(parentOf(issuance)).toBe(request);
    for (const step of ['issuance.validate', 'issuance.sign', 'issuance.store', 'issuance.record']) {
      expect(parentOf(inIssuance.find((s) => s.name === step)!), step).toBe(issuance);
    }
    const signStep = inIssuance.find((s) => s.name === 'issuance.sign')!;
    const storeStep = inIssuance.find((s) => s.name === 'issuance.store')!;
    const vcSpans = inIssuance.filter((s) => s.service === 'credential-support-vc-service');
    expect(vcSpans.map((s) => s.name).sort()).toEqual(['POST /agent/issueBitstringStatusList', 'POST /v2/credentials/issue']);
    for (const span of vcSpans) expect(parentOf(span)).toBe(signStep);
    const storageSpans = inIssuance.filter((s) => s.service === 'credential-support-storage-service');
    expect(storageSpans.map((s) => s.name)).toEqual(['POST /api/v4/private']);
    expect(parentOf(storageSpans[0]!)).toBe(storeStep);

    // The batch item: submitted on the web process, issued on the worker, signed and stored by the services, one trace.
    const submission = one((s) => s.name === 'POST /api/v1/credentials/batches', 'batch submission span');
    const inBatch = spans.filter((s) => s.traceId === submission.traceId);
    expect(new Set(inBatch.map((s) => s.service))).toEqual(
      new Set(['credential-support-service', 'credential-support-service-worker', 'credential-support-vc-service', 'credential-support-storage-service']),
    );
    const job = inBatch.find((s) => s.name === 'job credentials.issue-batch' && s.service === 'credential-support-service-worker')!;
    let ancestor = parentOf(job);
    while (ancestor && ancestor !== submission) ancestor = parentOf(ancestor);
    expect(ancestor, 'the job span descends from the submission').toBe(submission);
    const itemIssuance = inBatch.find((s) => s.name === 'issuance' && s.service === 'credential-support-service-worker')!;
    let up = parentOf(itemIssuance);
    while (up && up !== job) up = parentOf(up);
    expect(up, 'the item issuance descends from the job').toBe(job);
    const itemSign = inBatch.find((s) => s.name === 'issuance.sign' && parentOf(s) === itemIssuance)!;
    expect(inBatch.filter((s) => s.service === 'credential-support-vc-service' && parentOf(s) === itemSign)).toHaveLength(2);
    const itemStore = inBatch.find((s) => s.name === 'issuance.store' && parentOf(s) === itemIssuance)!;
    expect(inBatch.filter((s) => s.service === 'credential-support-storage-service' && parentOf(s) === itemStore)).toHaveLength(1);
  }, 240_000);

  it('exports http/protobuf when asked, and refuses an unknown protocol or sampler at boot', async () => {
    const before = receiver.contentTypes.length;
    const vc = await startVcProcess(stack.databaseUrl, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' });
    await fetch(`${vc.url}/health-check`);
    await vc.stop();
    expect(receiver.contentTypes.slice(before)).toContain('application/x-protobuf');
    await expect(startVcProcess(stack.databaseUrl, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).rejects.toThrow(/did not start/);
    const refused = runProgram('vc-service/server.ts', {
      API_KEY: VC_API_KEY,
      KEY_ENCRYPTION_KEY: '5f'.repeat(32),
      DATABASE_URL: stack.databaseUrl,
      PORT: String(await freePort()),
      PUBLIC_URL: 'http://127.0.0.1:9',
      WORKERS: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_SAMPLER: 'sometimes',
    });
    expect(await refused.exited).toBe(1);
    expect(refused.output().stderr).toContain('OTEL_TRACES_SAMPLER must be one of parentbased_always_on');
  }, 120_000);
});
