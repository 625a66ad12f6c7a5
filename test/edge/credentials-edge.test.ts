import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { decodeEnveloped, issueBody, openStoredCopy, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../rig/credential-fixtures.ts';
import { TEST_APP_CLIENT, TEST_AUDIENCE, TEST_ENCRYPTION_KEY } from '../rig/test-settings.ts';

/**
 * Issuance (`POST /api/v1/credentials`, and the list on its path) bundled as deployed and run in workerd (miniflare)
 * against the same database, IDP, VC and storage services as the Node test app. The UNTP and W3C hosts are offline
 * here, so every context and schema comes from the bundled artefacts, which the edge bundle reads from the module
 * beside it. A credential issued at the edge is read and verified by the Node web process; refusals are the Node
 * process's own, body for body.
 */
describe('issuance as an edge function in workerd', () => {
  let dir: string;
  let mf: Miniflare;
  let rig: IssuanceRig;
  const base = 'http://edge.test';

  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await mf.dispatchFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const json = response.headers.get('content-type')?.startsWith('application/json');
    return { status: response.status, body: json && text ? JSON.parse(text) : undefined, text };
  };
  const dpp = () => samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-edge-issuance-'));
    await bundleEdgeEntry('functions/credentials/edge.ts', join(dir, 'credentials.js'));
    rig = await startIssuanceRig();
    mf = new Miniflare({
      modules: true,
      modulesRoot: dir,
      compatibilityDate: '2026-07-01',
      compatibilityFlags: ['nodejs_compat'],
      bindings: {
        RI_DATABASE_URL: rig.t.databaseUrl,
        RI_APP_URL: rig.t.url,
        DATA_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        AUTH_OIDC_ISSUER: rig.t.idp.issuer,
        AUTH_OIDC_CLIENT_ID: TEST_APP_CLIENT.clientId,
        AUTH_OIDC_CLIENT_SECRET: TEST_APP_CLIENT.clientSecret,
        AUTH_OIDC_SERVICE_ACCOUNT_AUDIENCE: TEST_AUDIENCE,
        FETCH_ALLOW_PRIVATE_URLS: 'true',
        LOG_LEVEL: 'error',
      },
      scriptPath: join(dir, 'credentials.js'),
      // The zone route of wrangler.toml [env.credentials]: the exact path.
      routes: ['*/api/v1/credentials'],
    });
    await mf.ready;
  }, 180_000);

  afterAll(async () => {
    await mf?.dispose();
    await rig?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('issues a 0.7.0 DPP (contexts and schemas from the bundled artefacts); Node reads the record, opens the stored copy and verifies it', async () => {
    const issued = await call('POST', '/api/v1/credentials', rig.token, issueBody('DigitalProductPassport', '0.7.0', dpp()));
    expect(issued.status, issued.text).toBe(201);
    const id = issued.body.credentialId as string;
    const record = await rig.t.call('GET', `/api/v1/credentials/${id}`, { token: rig.token });
    expect(record.status).toBe(200);
    expect(record.body.credentialType).toBe('DigitalProductPassport');
    const stored = await openStoredCopy(record.body.storageUri, record.body.decryptionKey);
    expect(JSON.stringify(decodeEnveloped(stored))).toContain(rig.did);
    const verified = await rig.t.call('POST', '/api/v1/credentials/verify', { body: { uri: record.body.storageUri, decryptionKey: record.body.decryptionKey } });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.verified).toBe(true);
    const listed = await call('GET', '/api/v1/credentials?limit=100', rig.token);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual((await rig.t.call('GET', '/api/v1/credentials?limit=100', { token: rig.token })).body);
    expect(JSON.stringify(listed.body)).toContain(id);
  });

  it('issues payloads of shapes never seen before (a new member name each time) as Node does', async () => {
    for (const n of [1, 2]) {
      const payload = dpp();
      (payload.credentialSubject as Record<string, unknown>)[`note${n}`] = 'a member of a new name';
      const issued = await call('POST', '/api/v1/credentials', rig.token, issueBody('DigitalProductPassport', '0.7.0', payload));
      expect(issued.status, issued.text).toBe(201);
    }
  });

  it('refuses exactly as the Node web process does: an undefined term, a schema failure, an undefined type, a foreign DID, no token', async () => {
    const foreignDid = await rig.didOf('tenantB');
    const bodies = [
      issueBody('DigitalProductPassport', '0.7.0', { ...dpp(), relatedNotes: { remark: 'not in the vocabulary' } }),
      issueBody('DigitalProductPassport', '0.7.0', { ...dpp(), credentialSubject: { ...(dpp().credentialSubject as Record<string, unknown>), name: 42 } }),
      issueBody('DigitalProductPassport', '0.7.0', { ...dpp(), credentialSubject: { ...(dpp().credentialSubject as Record<string, unknown>), type: ['Product', 'Gadget'] } }),
      issueBody('DigitalProductPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, foreignDid)),
      issueBody('DigitalPassport', '0.7.0', dpp()),
    ];
    const codes = [];
    for (const body of bodies) {
      const edge = await call('POST', '/api/v1/credentials', rig.token, body);
      const node = await rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body });
      expect(edge.status, edge.text).toBe(400);
      expect(edge.body).toEqual(node.body);
      codes.push(edge.body.code);
    }
    expect(codes).toEqual(['JSONLD_DOCUMENT_INVALID', 'SCHEMA_DOCUMENT_INVALID', 'JSONLD_DOCUMENT_INVALID', 'ISSUER_DID_NOT_REGISTERED', 'DATA_MODEL_NOT_FOUND']);
    expect((await call('POST', '/api/v1/credentials', undefined, bodies[0])).status).toBe(401);
  });
});
