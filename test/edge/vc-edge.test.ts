import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { API_KEY, KEY_ENCRYPTION_KEY, sampleCredential, startVcService, type VcService } from '../../vc-service/test/vc-harness.ts';

/**
 * The VC service bundled as deployed and run in workerd (miniflare) on the database of a Node VC service
 * (which migrated it), with the same key-encryption key: keys sealed on one side open on the other, and
 * credentials signed on one side verify on the other.
 */
describe('the VC service as an edge function in workerd', () => {
  let dir: string;
  let mf: Miniflare;
  let node: VcService;
  const base = 'http://vc.edge.test';

  const edge = async (method: string, path: string, json?: unknown, key: string | null = API_KEY) => {
    const headers: Record<string, string> = {};
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await mf.dispatchFetch(`${base}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const issue = (call: (m: string, p: string, j?: unknown) => Promise<{ status: number; body: any }>, issuer: string) =>
    call('POST', '/v2/credentials/issue', { credential: sampleCredential(issuer, {}), options: { proofFormat: 'EnvelopingProofJose' } });
  const verify = (call: (m: string, p: string, j?: unknown) => Promise<{ status: number; body: any }>, credential: unknown) =>
    call('POST', '/agent/routeVerificationCredential', { credential, fetchRemoteContexts: false, policies: { credentialStatus: true } });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-edge-vc-'));
    await bundleEdgeEntry('vc-service/edge.ts', join(dir, 'vc.js'));
    node = await startVcService();
    mf = new Miniflare({
      modules: true,
      modulesRoot: dir,
      scriptPath: join(dir, 'vc.js'),
      compatibilityDate: '2026-07-01',
      compatibilityFlags: ['nodejs_compat'],
      bindings: { API_KEY, KEY_ENCRYPTION_KEY, DATABASE_URL: node.databaseUrl, PUBLIC_URL: base, LOG_LEVEL: 'error' },
    });
    await mf.ready;
  }, 180_000);

  afterAll(async () => {
    await mf?.dispose();
    await node?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates a DID and signs with it at the edge; the Node service verifies that credential, and the edge one the Node service’s', async () => {
    const created = await edge('POST', '/agent/didManagerCreate', { alias: 'edge-issuer.example.com' });
    expect(created.status).toBe(200);
    const signed = await issue(edge, created.body.did);
    expect(signed.status).toBe(201);
    const nodeCall = (m: string, p: string, j?: unknown) => node.call(m, p, { json: j });
    expect((await verify(nodeCall, signed.body.verifiableCredential)).body.verified).toBe(true);

    const nodeDid = await node.agent('didManagerCreate', { alias: 'node-issuer.example.com' });
    const nodeSigned = await issue(nodeCall, nodeDid.body.did);
    expect((await verify(edge, nodeSigned.body.verifiableCredential)).body.verified).toBe(true);
    // The edge signs with the key the Node service sealed, too.
    const edgeSigned = await issue(edge, nodeDid.body.did);
    expect((await verify(nodeCall, edgeSigned.body.verifiableCredential)).body.verified).toBe(true);
  });

  it('mints, sets and reads a status bit at the edge; its list is public', async () => {
    const issuer = (await edge('POST', '/agent/didManagerCreate', { alias: 'edge-status.example.com' })).body.did;
    const entry = await edge('POST', '/agent/issueBitstringStatusList', { statusPurpose: 'revocation', bitstringStatusIssuer: issuer });
    expect(entry.status).toBe(200);
    const set = await edge('POST', '/agent/setBitstringStatus', {
      statusListCredential: entry.body.statusListCredential,
      statusListVCIssuer: issuer,
      statusPurpose: 'revocation',
      index: entry.body.statusListIndex,
      status: true,
    });
    expect(set.status).toBe(200);
    expect(set.body.status).toBe(true);
    const list = await mf.dispatchFetch(entry.body.statusListCredential);
    expect(list.status).toBe(200);
  });

  it('refuses a wrong API key with 401, as the Node service does', async () => {
    expect((await edge('POST', '/agent/didManagerCreate', { alias: 'x.example.com' }, 'wrong')).status).toBe(401);
  });
});
