import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrometheusRecorder } from '../../core/metrics/prometheus-recorder.ts';
import { installMetricsRecorder } from '../../core/metrics/recorder.ts';
import { connectDatabase } from '../../db/client.ts';
import { startVcService } from '../../vc-service/test/vc-harness.ts';
import { issueBody, samplePayload, SAMPLES, startIssuanceRig, type IssuanceRig } from '../rig/credential-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../rig/databases.ts';
import { insertBatch, insertTenant } from '../rig/batch-recovery-fixtures.ts';
import { freePort } from '../rig/postgres-server.ts';
import { runProgram, untilHealthy } from '../rig/program.ts';
import { TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';
import { startWorkerProcess } from '../rig/worker-process.ts';

/** `/metrics` of each process after a small workload: the values move as the workload says. */
const TOKEN = 'metrics-bearer-token-0123456789';

/** The value of one sample line of a Prometheus text (0 when absent): `name{label="v",…}` with exactly these labels among others. */
const sample = (text: string, name: string, labels: Record<string, string>): number => {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([key, value]) => body.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
};

const scrape = async (url: string, token: string | null = TOKEN) => {
  const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, text: await res.text() };
};

describe('metrics recorded by the domain (issuance, verification, HTTP by route)', () => {
  let rig: IssuanceRig;
  const registry = new Registry();
  beforeAll(async () => {
    installMetricsRecorder(createPrometheusRecorder(registry));
    rig = await startIssuanceRig();
  });
  afterAll(() => rig?.close());

  it('counts issuances and verifications by type and outcome, and requests by route pattern and status', async () => {
    const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did);
    const issued = await rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body: issueBody('DigitalProductPassport', '0.7.0', payload) });
    expect(issued.status, issued.text).toBe(201);
    const refused = await rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body: issueBody('DigitalProductPassport', '9.9.9', payload) });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    const record = (await rig.t.call('GET', `/api/v1/credentials/${issued.body.credentialId}`, { token: rig.token })).body;
    const verified = await rig.t.call('POST', '/api/v1/credentials/verify', { body: { uri: record.storageUri, decryptionKey: record.decryptionKey } });
    expect(verified.body.verified).toBe(true);
    const wrongKey = await rig.t.call('POST', '/api/v1/credentials/verify', { body: { uri: record.storageUri, decryptionKey: '00'.repeat(32) } });
    expect(wrongKey.body.verified).not.toBe(true);

    const text = await registry.metrics();
    expect(sample(text, 'css_issuances_total', { credential_type: 'DigitalProductPassport', outcome: 'issued' })).toBe(1);
    expect(sample(text, 'css_issuances_total', { credential_type: 'DigitalProductPassport', outcome: 'refused' })).toBe(1);
    expect(sample(text, 'css_verifications_total', { credential_type: 'DigitalProductPassport', outcome: 'verified' })).toBe(1);
    expect(sample(text, 'css_verifications_total', { outcome: 'DECRYPTION_FAILED' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/api/v1/credentials', method: 'POST', status: '201' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/api/v1/credentials/:id', method: 'GET', status: '200' })).toBe(1);
    expect(sample(text, 'css_status_list_allocations_total', { purpose: 'revocation' })).toBe(1);
    // Each step of the one issuance timed once (the refused one stopped before its payload was validated); nothing published.
    for (const step of ['validate', 'sign', 'store', 'record']) {
      expect(sample(text, 'css_step_seconds_count', { operation: 'issuance', step }), step).toBe(1);
      expect(sample(text, 'css_step_seconds_sum', { operation: 'issuance', step }), step).toBeGreaterThan(0);
    }
    expect(sample(text, 'css_step_seconds_count', { operation: 'issuance', step: 'publish' })).toBe(0);
    // Two verifications fetched and decrypted (the wrong key failed there, its digest and proof never judged); one judged by the VC service.
    expect(sample(text, 'css_step_seconds_count', { operation: 'verification', step: 'retrieve' })).toBe(2);
    expect(sample(text, 'css_step_seconds_count', { operation: 'verification', step: 'decrypt' })).toBe(2);
    expect(sample(text, 'css_step_seconds_count', { operation: 'verification', step: 'proof' })).toBe(1);
    // The schema once (a miss); each context fetched once (misses) and then read from the cache (hits).
    expect(sample(text, 'css_document_cache_reads_total', { kind: 'schema', result: 'miss' })).toBe(1);
    expect(sample(text, 'css_document_cache_reads_total', { kind: 'context', result: 'miss' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'css_document_cache_reads_total', { kind: 'context', result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(issued.body.credentialId);
  });
});

describe('/metrics of each process', () => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'css-metrics-'));
  });
  afterAll(async () => {
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('web: 404 without METRICS_BEARER_TOKEN; with it, only that bearer reads it, and request counts move', async () => {
    const start = async (env: Record<string, string>) => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const web = runProgram('functions/server.ts', {
        RI_APP_URL: url,
        AUTH_OIDC_ISSUER: 'http://127.0.0.1:9',
        RI_DATABASE_URL: database.url,
        DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        PORT: String(port),
        HOST: '127.0.0.1',
        ...env,
      });
      expect(await untilHealthy(web.child, `${url}/api/health`, 60)).toBeUndefined();
      return { url, stop: async () => (web.child.kill('SIGTERM'), await web.exited) };
    };
    const off = await start({});
    try {
      expect((await scrape(off.url)).status).toBe(404);
    } finally {
      await off.stop();
    }
    const on = await start({ METRICS_BEARER_TOKEN: TOKEN });
    try {
      expect((await scrape(on.url, null)).status).toBe(401);
      expect((await scrape(on.url, 'wrong-token')).status).toBe(401);
      const before = sample((await scrape(on.url)).text, 'http_request_duration_seconds_count', { route: '/api/health', status: '200' });
      for (let i = 0; i < 3; i++) await fetch(`${on.url}/api/health`);
      const after = await scrape(on.url);
      expect(after.status).toBe(200);
      expect(sample(after.text, 'http_request_duration_seconds_count', { route: '/api/health', status: '200' })).toBe(before + 3);
      expect(after.text).toContain('service="credential-support-service"');
      expect(after.text).toContain('process_resident_memory_bytes');
      expect(after.text).not.toContain(TEST_ENCRYPTION_KEY);
    } finally {
      await on.stop();
    }
  });

  it('storage service: requests by route and status, for the bearer only', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const storage = runProgram('storage-service/server.ts', {
      API_KEY: 'test-storage-key-0123456789',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      STORAGE_TYPE: 'local',
      LOCAL_DIRECTORY: dir,
      WORKERS: '1',
      METRICS_BEARER_TOKEN: TOKEN,
    });
    try {
      expect(await untilHealthy(storage.child, `${url}/health-check`)).toBeUndefined();
      expect((await scrape(url, null)).status).toBe(401);
      await fetch(`${url}/health-check`);
      const text = (await scrape(url)).text;
      expect(sample(text, 'http_request_duration_seconds_count', { route: '/health-check', status: '200', service: 'credential-support-storage-service' })).toBeGreaterThanOrEqual(2);
    } finally {
      storage.child.kill('SIGTERM');
      await storage.exited;
    }
  });

  it('VC service: agent calls by method and status; 404 when no token is set', async () => {
    const vc = await startVcService({ env: { METRICS_BEARER_TOKEN: TOKEN } });
    const without = await startVcService();
    try {
      expect((await scrape(without.url)).status).toBe(404);
      await vc.agent('didManagerCreate', { alias: 'metrics.example.com' });
      await vc.agent('didManagerCreate', { alias: 'metrics.example.com' });
      const text = (await scrape(vc.url)).text;
      expect(sample(text, 'http_request_duration_seconds_count', { route: '/agent/didManagerCreate', status: '200' })).toBe(1);
      expect(sample(text, 'http_request_duration_seconds_count', { route: '/agent/didManagerCreate', status: '409' })).toBe(1);
    } finally {
      await vc.stop();
      await without.stop();
    }
  });

  it('worker: on WORKER_METRICS_PORT only, batch items by state, queue gauges and the backlog past BACKLOG_ALERT_SECONDS', async ({ signal }) => {
    const handle = connectDatabase(database.url, { max: 1 });
    try {
      const tenantId = await insertTenant(handle.db);
      await insertBatch(handle.db, tenantId, ['QUEUED', 'QUEUED', 'FAILED'], { settle: false });
      // Queued an hour ago: a backlog by any alert threshold below that.
      await handle.db.execute(sql`update credential_batches set created_at = now() - interval '1 hour'`);
    } finally {
      await handle.close();
    }
    const port = await freePort();
    // The worker takes no jobs here: its issue-batch queue is left alone (no batch job was enqueued).
    const worker = await startWorkerProcess(database.url, { WORKER_METRICS_PORT: String(port), METRICS_BEARER_TOKEN: TOKEN, BACKLOG_ALERT_SECONDS: '600', HOST: '127.0.0.1' }, signal);
    try {
      const url = `http://127.0.0.1:${port}`;
      expect((await scrape(url, null)).status).toBe(401);
      const { status, text } = await scrape(url);
      expect(status).toBe(200);
      expect(sample(text, 'css_batch_items', { state: 'QUEUED' })).toBe(2);
      expect(sample(text, 'css_batch_items', { state: 'FAILED' })).toBe(1);
      expect(sample(text, 'css_backlog', { kind: 'batch_item' })).toBe(1);
      expect(sample(text, 'css_backlog', { kind: 'library_run' })).toBe(0);
      expect(sample(text, 'css_backlog_oldest_seconds', { kind: 'batch_item' })).toBeGreaterThanOrEqual(3600);
      expect(text).toContain('# TYPE css_queue_depth gauge');
      expect(text).toContain('# TYPE css_queue_oldest_job_age_seconds gauge');
      expect((await fetch(`${url}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
      // The worker's health says so too: one warn line at its first heartbeat (before it logged "Worker started").
      expect(worker.logs().filter((line) => line.message.startsWith('Backlog:'))).toEqual([
        expect.objectContaining({ level: 'warn', kind: 'batch_item', backlogAlertSeconds: 600 }),
      ]);
    } finally {
      expect(await worker.stop('SIGTERM')).toBe(0);
    }
  });

  it('worker: WORKER_METRICS_PORT without METRICS_BEARER_TOKEN refuses to boot, naming both', async () => {
    const program = runProgram('consumers/worker.ts', {
      RI_APP_URL: 'http://127.0.0.1:3003',
      RI_DATABASE_URL: database.url,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      WORKER_METRICS_PORT: String(await freePort()),
    });
    expect(await program.exited).toBe(1);
    expect(program.output().stderr + program.output().stdout).toContain('WORKER_METRICS_PORT needs METRICS_BEARER_TOKEN');
  });
});
