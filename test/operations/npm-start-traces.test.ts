import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBody, samplePayload, SAMPLES } from '../rig/credential-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../rig/databases.ts';
import { freePort } from '../rig/postgres-server.ts';
import { runProgram, stopProgram, untilPrinted, type Program } from '../rig/program.ts';
import { startReceiver, type Receiver, type ReceivedSpan } from './otlp-receiver.ts';

/**
 * `npm start` with tracing on runs the web API, the worker, the VC and the storage services in one process:
 * the OpenTelemetry SDK starts once, and each service's spans reach the collector under its own
 * `service.name`, linked into one trace per issuance as across separate processes.
 */
const WEB = 'credential-support-service';
const WORKER = 'credential-support-service-worker';
const VC = 'credential-support-vc-service';
const STORAGE = 'credential-support-storage-service';

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('npm start with OTEL_EXPORTER_OTLP_ENDPOINT: one SDK, a service.name per service', () => {
  let receiver: Receiver;
  let database: TestDatabase;
  let dir: string;
  let program: Program;
  const ports = { web: 0, idp: 0, storage: 0, vc: 0 };

  beforeAll(async () => {
    receiver = await startReceiver();
    dir = await mkdtemp(join(tmpdir(), 'css-start-traces-'));
    database = await createTestDatabase('empty');
    for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
    program = runProgram('scripts/start-local.ts', {
      PORT: String(ports.web),
      LOCAL_IDP_PORT: String(ports.idp),
      STORAGE_PORT: String(ports.storage),
      VC_PORT: String(ports.vc),
      RI_DATABASE_URL: database.url,
      LOCAL_DATA_DIR: dir,
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    // Readiness, bounded: the startup table is printed once everything runs.
    await untilPrinted(program, 'Press Ctrl+C to stop.', 240);
  }, 300_000);

  afterAll(async () => {
    await stopProgram(program);
    await database?.drop();
    await receiver?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('exports the web, worker, VC and storage spans of one issuance and one batch item, each under its service.name, from one SDK; stops with a line per service', async () => {
    const api = `http://localhost:${ports.web}/api/v1`;
    const tokenResponse = await fetch(`http://127.0.0.1:${ports.idp}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('local-service-account:local-service-account-secret')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: 'credential-support-service' }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${api}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    const did = await call('POST', '/dids', { type: 'MANAGED', method: 'DID_WEB', alias: 'npm-start-traced' });
    expect(did.status, JSON.stringify(did.body)).toBe(201);
    const request = issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, did.body.did));
    const issued = await call('POST', '/credentials', request);
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const batch = await call('POST', '/credentials/batches', { items: [request] }, { 'idempotency-key': crypto.randomUUID() });
    expect(batch.status).toBe(202);
    // Readiness, bounded: the worker of the same process settles the batch.
    for (let polls = 0; (await call('GET', `/credentials/batches/${batch.body.batchId}`)).body.state !== 'COMPLETED'; polls += 1) {
      if (polls > 1200) throw new Error('the batch did not complete');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A clean stop flushes every service's spans.
    program.child.kill('SIGTERM');
    expect(await program.exited).toBe(0);

    const { spans } = receiver;
    expect(new Set(spans.map((span) => span.service))).toEqual(new Set([WEB, WORKER, VC, STORAGE]));
    // One process, one SDK: every span comes from npm start's process, and its log says the SDK started once, without a complaint.
    expect(new Set(spans.map((span) => span.pid))).toEqual(new Set([program.child.pid]));
    const lines = jsonLines(program.output().stdout);
    expect(lines.filter((line) => line.message === 'OpenTelemetry SDK started')).toHaveLength(1);
    expect(lines.filter((line) => String(line.message).startsWith('OpenTelemetry:'))).toEqual([]);
    // The clean stop: one line per service of the process, each under its name.
    expect(lines.filter((line) => String(line.message).endsWith(' stopped')).map((line) => `${line['service.name']}: ${line.message}`).sort()).toEqual([
      `${STORAGE}: Storage service stopped`,
      `${VC}: VC service stopped`,
      `${WORKER}: Worker stopped`,
      `${WEB}: Web API stopped`,
    ].sort());

    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const parentOf = (span: ReceivedSpan) => (span.parentSpanId ? byId.get(span.parentSpanId) : undefined);
    // The single issuance: the web's spans, the VC service's under its signing step, the storage service's under its storing step.
    const requestSpans = spans.filter((span) => span.name === 'POST /api/v1/credentials');
    expect(requestSpans.map((span) => span.service)).toEqual([WEB]);
    const trace = spans.filter((span) => span.traceId === requestSpans[0]!.traceId);
    const sign = trace.find((span) => span.name === 'issuance.sign')!;
    const store = trace.find((span) => span.name === 'issuance.store')!;
    expect([sign.service, store.service, trace.find((span) => span.name === 'issuance')?.service]).toEqual([WEB, WEB, WEB]);
    const vcSpans = trace.filter((span) => parentOf(span) === sign);
    expect(vcSpans.map((span) => `${span.service} ${span.name}`).sort()).toEqual([`${VC} POST /agent/issueBitstringStatusList`, `${VC} POST /v2/credentials/issue`]);
    expect(trace.filter((span) => parentOf(span) === store).map((span) => `${span.service} ${span.name}`)).toEqual([`${STORAGE} POST /api/v4/private`]);

    // The batch item: the worker's job and issuance, the services' spans under the item's steps, in the submission's trace.
    const submission = spans.find((span) => span.name === 'POST /api/v1/credentials/batches')!;
    expect(submission.service).toBe(WEB);
    const inBatch = spans.filter((span) => span.traceId === submission.traceId);
    const job = inBatch.find((span) => span.name === 'job credentials.issue-batch')!;
    expect(job.service).toBe(WORKER);
    const itemSign = inBatch.find((span) => span.name === 'issuance.sign')!;
    expect(itemSign.service).toBe(WORKER);
    expect(inBatch.filter((span) => parentOf(span) === itemSign).map((span) => span.service)).toEqual([VC, VC]);
    const itemStore = inBatch.find((span) => span.name === 'issuance.store')!;
    expect(inBatch.filter((span) => parentOf(span) === itemStore).map((span) => span.service)).toEqual([STORAGE]);
  }, 300_000);
});
