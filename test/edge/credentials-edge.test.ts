import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEnveloped, issueBody, openStoredCopy, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../rig/credential-fixtures.ts';
import { edgeBindings, startEdgeWorker, type EdgeWorker } from './edge-worker.ts';

/**
 * Issuance (`POST /api/v1/credentials`, and the list on its path) bundled as deployed and run in workerd (miniflare)
 * against the same database, IDP, VC and storage services as the Node test app. The UNTP and W3C hosts are offline
 * here, so every context and schema comes from the bundled artefacts, which the edge bundle reads from the module
 * beside it. A credential issued at the edge is read and verified by the Node web process; refusals are the Node
 * process's own, body for body.
 */
describe('issuance as an edge function in workerd', () => {
  let edge: EdgeWorker;
  let rig: IssuanceRig;
  const call: EdgeWorker['call'] = (...args) => edge.call(...args);
  const dpp = () => samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did);

  beforeAll(async () => {
    rig = await startIssuanceRig();
    // The zone route of wrangler.toml [env.credentials]: the exact path.
    edge = await startEdgeWorker({ entry: 'functions/credentials/edge.ts', name: 'credentials', bindings: edgeBindings(rig.t), routes: ['*/api/v1/credentials'] });
  }, 180_000);

  afterAll(async () => {
    await edge?.close();
    await rig?.close();
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
