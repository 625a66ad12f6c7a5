import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBody, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../rig/credential-fixtures.ts';
import { recordCredential, statusProviderFixture } from '../rig/status-fixtures.ts';
import { edgeBindings, startEdgeWorker, type EdgeWorker } from './edge-worker.ts';

/**
 * The credential-records edge entry (records and their status under /api/v1/credentials/{id}), bundled as
 * deployed and run in workerd (miniflare) against the same database, IDP, VC and storage services as the Node
 * test app, which issues. What it answers must be what the Node web process answers.
 */
describe('credential records as an edge function in workerd', () => {
  let edge: EdgeWorker;
  let rig: IssuanceRig;
  let tokenB: string;
  const call: EdgeWorker['call'] = (...args) => edge.call(...args);

  const issue = async () => {
    const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did);
    const res = await rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body: issueBody('DigitalProductPassport', '0.7.0', payload) });
    expect(res.status, res.text).toBe(201);
    return res.body.credentialId as string;
  };

  beforeAll(async () => {
    rig = await startIssuanceRig();
    tokenB = await rig.t.token('tenantB');
    // The zone route of wrangler.toml, and the list's exact path (which a gateway may bind to this worker).
    edge = await startEdgeWorker({
      entry: 'functions/credential-records/edge.ts',
      name: 'credential-records',
      bindings: edgeBindings(rig.t, { CREDENTIAL_STATUS_MUTATION_ENABLED: 'true' }),
      routes: ['*/api/v1/credentials/*', '*/api/v1/credentials'],
    });
  }, 180_000);

  afterAll(async () => {
    await edge?.close();
    await rig?.close();
  });

  it('reads an issued record exactly as the Node web process does, and lists it; another tenant sees 404, no token 401', async () => {
    const id = await issue();
    const edge = await call('GET', `/api/v1/credentials/${id}`, rig.token);
    const node = await rig.t.call('GET', `/api/v1/credentials/${id}`, { token: rig.token });
    expect(edge.status).toBe(200);
    expect(edge.body).toEqual(node.body);
    expect(edge.body.decryptionKey).toMatch(/^[0-9a-f]{64}$/);
    const listed = await call('GET', '/api/v1/credentials?limit=100', rig.token);
    expect(listed.status).toBe(200);
    const nodeList = await rig.t.call('GET', '/api/v1/credentials?limit=100', { token: rig.token });
    expect(listed.body).toEqual(nodeList.body);
    expect(JSON.stringify(listed.body)).toContain(id);
    const foreign = await call('GET', `/api/v1/credentials/${id}`, tokenB);
    const missing = await call('GET', `/api/v1/credentials/${id.replace(/.$/, id.endsWith('a') ? 'b' : 'a')}`, tokenB);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await call('GET', `/api/v1/credentials/${id}`)).status).toBe(401);
    const malformed = await call('GET', '/api/v1/credentials/not-an-id', rig.token);
    const nodeMalformed = await rig.t.call('GET', '/api/v1/credentials/not-an-id', { token: rig.token });
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect([malformed.status, malformed.body]).toEqual([nodeMalformed.status, nodeMalformed.body]);
  });

  it('deletes a record and its stored copy (best effort); another tenant cannot; Node then sees it gone', async () => {
    const id = await issue();
    const { storageUri } = (await rig.t.call('GET', `/api/v1/credentials/${id}`, { token: rig.token })).body as { storageUri: string };
    expect((await fetch(storageUri)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/credentials/${id}`, tokenB)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/credentials/${id}`, rig.token)).status).toBe(204);
    expect((await rig.t.call('GET', `/api/v1/credentials/${id}`, { token: rig.token })).status).toBe(404);
    expect((await fetch(storageUri)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/credentials/${id}`, rig.token)).status).toBe(404);
  });

  it('answers the status routes under the same prefix (one zone route), as the credential-status group does', async () => {
    const tenantId = await rig.t.tenantOf('tenantA');
    const provider = await statusProviderFixture(rig.t, tenantId, rig.vc, 'edge-records.example.com');
    const { id } = await recordCredential(rig.t, { tenantId, vc: rig.vc, instanceId: provider.instance.id, did: provider.did });
    const edge = await call('GET', `/api/v1/credentials/${id}/status`, rig.token);
    expect(edge.status).toBe(200);
    expect(edge.body).toEqual((await rig.t.call('GET', `/api/v1/credentials/${id}/status`, { token: rig.token })).body);
    expect((await call('GET', `/api/v1/credentials/${id}/status`, tokenB)).status).toBe(404);
  });

  it('does not carry issuance: POST /api/v1/credentials is not a route of this bundle', async () => {
    const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did);
    const res = await call('POST', '/api/v1/credentials', rig.token, issueBody('DigitalProductPassport', '0.7.0', payload));
    expect(res.status).toBe(404);
  });
});
