import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCredential, startVcService, type VcService } from './vc-harness.ts';

let vc: VcService;
let issuer: string;
beforeAll(async () => {
  vc = await startVcService();
  issuer = (await vc.agent('didManagerCreate', { alias: 'traced.example.com' })).body.did;
});
afterAll(() => vc.stop());

const traced = (id: string) => ({ 'x-correlation-id': id });
const events = (id: string, key?: string | null) => vc.call('GET', `/v2/correlations/${id}`, { key });

describe('VC service: what it did for a correlation id', () => {
  it('records the signature (credential id, payload digest) and the status entry under the caller\'s id, oldest first', async () => {
    const credential = sampleCredential(issuer, { id: 'urn:uuid:0b6f7a48-5a43-4c5e-9b1e-0f6d3c2a1b01' });
    const entry = await vc.call('POST', '/agent/issueBitstringStatusList', {
      json: { statusPurpose: 'revocation', bitstringStatusIssuer: issuer },
      headers: traced('batch-a-3'),
    });
    expect(entry.status).toBe(200);
    const issued = await vc.call('POST', '/v2/credentials/issue', { json: { credential }, headers: traced('batch-a-3') });
    expect(issued.status).toBe(201);
    const res = await events('batch-a-3');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      correlationId: 'batch-a-3',
      events: [
        { kind: 'status-entry', issuer, credentialId: null, payloadDigest: null, statusEntry: entry.body.id, createdAt: expect.stringMatching(/Z$/) },
        {
          kind: 'signature',
          issuer,
          credentialId: credential.id,
          payloadDigest: createHash('sha256').update(JSON.stringify(credential)).digest('hex'),
          statusEntry: null,
          createdAt: expect.stringMatching(/Z$/),
        },
      ],
    });
  });

  it('records nothing for a call without a correlation id, nor for a refused call; another id sees only its own', async () => {
    await vc.call('POST', '/v2/credentials/issue', { json: { credential: sampleCredential(issuer) } });
    const refused = await vc.call('POST', '/v2/credentials/issue', { json: { credential: sampleCredential('did:web:stranger.example.com') }, headers: traced('batch-b-0') });
    expect(refused.status).toBe(400);
    expect((await events('batch-b-0')).body).toEqual({ correlationId: 'batch-b-0', events: [] });
    // An id the service would not take as ours (a dot) was replaced by its own: nothing is recorded under it.
    await vc.call('POST', '/v2/credentials/issue', { json: { credential: sampleCredential(issuer) }, headers: traced('batch.c') });
    expect((await events('batch-c')).body.events).toEqual([]);
  });

  it('lists every status entry minted under a correlation id a page at a time, with its purpose and whether its bit is set', async () => {
    const traced2 = traced('batch-d-0');
    const minted = [];
    for (let i = 0; i < 3; i++) {
      minted.push((await vc.call('POST', '/agent/issueBitstringStatusList', { json: { statusPurpose: 'revocation', bitstringStatusIssuer: issuer }, headers: traced2 })).body);
    }
    const first = minted[0];
    await vc.agent('setBitstringStatus', { statusListCredential: first.statusListCredential, statusListVCIssuer: issuer, statusPurpose: 'revocation', index: first.statusListIndex, status: true });
    const all = await vc.call('GET', '/v2/correlations');
    expect(all.status).toBe(200);
    const mine = all.body.entries.filter((e: { correlationId: string }) => e.correlationId === 'batch-d-0');
    expect(mine).toEqual(minted.map((m, i) => ({ id: expect.stringMatching(/^\d+$/), correlationId: 'batch-d-0', issuer, statusEntry: m.id, statusPurpose: 'revocation', bitSet: i === 0, createdAt: expect.any(String) })));
    // Paged: a full page names the cursor of the next.
    const page = await vc.call('GET', '/v2/correlations?limit=1');
    expect(page.body.entries).toHaveLength(1);
    const next = await vc.call('GET', `/v2/correlations?limit=1&after=${page.body.next}`);
    expect(next.body.entries[0].id).not.toBe(page.body.entries[0].id);
    for (const bad of ['?after=x', '?limit=0', '?limit=201']) expect((await vc.call('GET', `/v2/correlations${bad}`)).status, bad).toBe(400);
    expect((await vc.call('GET', '/v2/correlations', { key: null })).status).toBe(401);
  });

  it('the lookup needs the API key and a well-formed id', async () => {
    expect((await events('batch-a-3', null)).status).toBe(401);
    expect((await events('batch-a-3', 'wrong-key')).status).toBe(401);
    const bad = await events('not%20an%20id');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^invalid_argument: the correlation id/);
    expect((await events('x'.repeat(129))).status).toBe(400);
  });
});
