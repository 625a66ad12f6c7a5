import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { createLogger } from '../../core/logging/logger.ts';
import type { RunningWorker } from '../../consumers/worker.ts';
import { BATCHES, issueJobs, item } from '../rig/batch-submission.ts';
import { pointVcInstance } from '../rig/did-fixtures.ts';
import { SYSTEM_SERVICE_IDS } from '../rig/fixtures.ts';
import { startTestWorker } from '../rig/jobs.ts';
import { providerBit, recordCredential, statusProviderFixture } from '../rig/status-fixtures.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';
import { startVerifyRig, type VerifyRig } from '../rig/verify-rig.ts';
import { PAGE_ASSETS } from '../../functions/verify-page/page-assets.ts';

/**
 * The credential groups that run at the edge (verification, status, batches, the library), bundled as
 * deployed and run in workerd, with the verify page, (miniflare) against the same database, IDP, VC service and sources as the
 * Node test app, which makes the fixtures. A batch submitted at the edge is queued by plain SQL in the
 * submission's transaction; the verify limits are the shared ones in PostgreSQL, keyed by CF-Connecting-IP.
 */
describe('credential groups as edge functions in workerd', () => {
  let dir: string;
  let mf: Miniflare;
  let rig: VerifyRig;
  let worker: RunningWorker;
  let token: string;
  let tenantId: string;
  let provider: Awaited<ReturnType<typeof statusProviderFixture>>;
  const base = 'http://edge.test';
  const groups = ['credential-verification', 'credential-status', 'credential-batches', 'library', 'verify-page'] as const;
  const routes: Record<(typeof groups)[number], string> = {
    'credential-verification': '*/api/v1/credentials/verify*',
    'credential-batches': '*/api/v1/credentials/batches*',
    'credential-status': '*/api/v1/credentials/*',
    library: '*/api/v1/library*',
    'verify-page': '*/verify*',
  };

  const call = async (method: string, path: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await mf.dispatchFetch(`${base}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await response.text();
    const json = response.headers.get('content-type')?.startsWith('application/json');
    return { status: response.status, body: json && text ? JSON.parse(text) : undefined, text, headers: response.headers };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-edge-credentials-'));
    for (const group of groups) await bundleEdgeEntry(`functions/${group}/edge.ts`, join(dir, `${group}.js`));
    rig = await startVerifyRig();
    // The worker installs pg-boss's schema and the queues, as it does in production before any edge enqueue.
    worker = await startTestWorker(rig.t.databaseUrl, [], createLogger('error'));
    // Its start seeds the system services from its settings: the system VC instance points at the rig's again.
    await pointVcInstance(rig.t, SYSTEM_SERVICE_IDS.VC, rig.vc);
    token = await rig.t.token('tenantA');
    await rig.t.call('GET', '/api/v1/services', { token });
    tenantId = await rig.t.tenantOf('tenantA');
    provider = await statusProviderFixture(rig.t, tenantId, rig.vc, 'edge-status.example.com');
    const bindings = {
      RI_DATABASE_URL: rig.t.databaseUrl,
      RI_APP_URL: base,
      DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      AUTH_OIDC_ISSUER: rig.t.idp.issuer,
      AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
      AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
      AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
      FETCH_ALLOW_PRIVATE_URLS: 'true',
      CREDENTIAL_STATUS_MUTATION_ENABLED: 'true',
      VERIFY_RATE_LIMIT_PER_MINUTE: '5',
      LOG_LEVEL: 'error',
    };
    const common = { modules: true, modulesRoot: dir, compatibilityDate: '2026-07-01', compatibilityFlags: ['nodejs_compat'], bindings };
    mf = new Miniflare({ workers: groups.map((group) => ({ ...common, name: group, scriptPath: join(dir, `${group}.js`), routes: [routes[group]] })) });
    await mf.ready;
  }, 180_000);

  afterAll(async () => {
    await mf?.dispose();
    await worker?.stop();
    await rig?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('verifies a stored credential (POST and GET), public, with the VC service checking its proof', async () => {
    const stored = await rig.store(await rig.issue());
    const headers = { 'cf-connecting-ip': '203.0.113.1' };
    const posted = await call('POST', '/api/v1/credentials/verify', { body: { uri: stored.uri }, headers });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.verified).toBe(true);
    const got = await call('GET', `/api/v1/credentials/verify?${new URLSearchParams({ uri: stored.uri })}`, { headers });
    expect(got.body.verified).toBe(true);
  });

  it('counts VERIFY_RATE_LIMIT_PER_MINUTE per CF-Connecting-IP in the shared store: beyond it 429 RATE_LIMITED; another address is not affected', async () => {
    const from = (ip: string) => call('POST', '/api/v1/credentials/verify', { body: { uri: 'not a url' }, headers: { 'cf-connecting-ip': ip } });
    for (let i = 0; i < 5; i++) expect((await from('203.0.113.2')).status).toBe(400);
    const refused = await from('203.0.113.2');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await from('203.0.113.3')).status).toBe(400);
  });

  it('reads a credential’s status and revokes it (the VC service’s list changes); a foreign tenant sees 404', async () => {
    const { id, entries } = await recordCredential(rig.t, { tenantId, vc: rig.vc, instanceId: provider.instance.id, did: provider.did });
    const read = await call('GET', `/api/v1/credentials/${id}/status`, { token });
    expect(read.status).toBe(200);
    expect(read.body.entries).toMatchObject([{ entryId: entries[0]!.id, statusPurpose: 'revocation', value: false, version: 1 }]);
    const revoked = await call('PUT', `/api/v1/credentials/${id}/status/revocation`, { token, body: { value: true }, headers: { 'if-version': '1' } });
    expect(revoked.status).toBe(200);
    expect(await providerBit(rig.vc, entries[0]!)).toBe(true);
    expect((await call('GET', `/api/v1/credentials/${id}/status`, { token: await rig.t.token('tenantB') })).status).toBe(404);
    expect((await call('GET', `/api/v1/credentials/${id}/status`)).status).toBe(401);
  });

  it('accepts a batch with its first job queued in the same transaction (plain SQL), which the worker’s pg-boss sees; reads it back', async () => {
    const res = await call('POST', BATCHES, { token, body: { items: [item(), item()] }, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(res.status).toBe(202);
    expect([...(await issueJobs(rig.t.db, res.body.batchId))].map((j) => j.state)).toEqual(['created']);
    const [job] = await rig.t.db.execute<{ id: string }>(sql`select id from pgboss.job where data->>'batchId' = ${res.body.batchId}`);
    expect(await worker.boss.getJobById('credentials.issue-batch', job!.id)).toMatchObject({ name: 'credentials.issue-batch', data: { tenantId, batchId: res.body.batchId } });
    const read = await call('GET', `${BATCHES}/${res.body.batchId}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: res.body.batchId, state: 'QUEUED', counts: { total: 2, queued: 2 } });
    const bad = await call('POST', BATCHES, { token, body: { items: [] }, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^items/);
  });

  it('lists and reads the tenant’s library records', async () => {
    const { id } = await recordCredential(rig.t, { tenantId, vc: rig.vc, instanceId: provider.instance.id, did: provider.did, purposes: [] });
    const list = await call('GET', '/api/v1/library?limit=50', { token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(id);
    expect((await call('GET', `/api/v1/library/${id}`, { token })).status).toBe(200);
    expect((await call('GET', `/api/v1/library/${id}`, { token: await rig.t.token('tenantB') })).status).toBe(404);
  });

  it('serves the verify page and its own assets (inlined at bundle time) as the Node web process does; its template route names a bad url', async () => {
    const page = await call('GET', '/verify');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBeTruthy();
    for (const [name, asset] of PAGE_ASSETS) {
      const res = await call('GET', `/verify/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe(asset.contentType);
      expect(res.text === asset.body, name).toBe(true);
    }
    expect((await call('GET', '/verify/not-an-asset.js')).status).toBe(404);
    const bad = await call('GET', '/verify/template?url=ftp://x', { headers: { 'cf-connecting-ip': '203.0.113.9' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('url: must be an http(s) URL');
  });
});
