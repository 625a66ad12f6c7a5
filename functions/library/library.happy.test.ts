import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryVerifyGeneration } from '../../consumers/jobs/library-verify-generation.ts';
import { externalCredentials, verificationRuns } from '../../db/schema/index.ts';
import { startTestWorker } from '../../test/rig/jobs.ts';
import { SAMPLES, samplePayload } from '../../test/rig/credential-fixtures.ts';
import { annotations, LIBRARY, startLibraryRig, type LibraryRig } from '../../test/rig/library-fixtures.ts';

let rig: LibraryRig;
let native: { id: string; storageUri: string; decryptionKey: string | null };
let plain: { id: string; storageUri: string; decryptionKey: string | null };

beforeAll(async () => {
  rig = await startLibraryRig({ CREDENTIAL_STATUS_MUTATION_ENABLED: 'true' });
  native = await rig.issue({ tags: ['imported', 'batch-7'] });
  plain = await rig.issue({ encrypt: false });
});
afterAll(async () => {
  await rig?.close();
});

const list = (query = '') => rig.t.call('GET', `${LIBRARY}${query}`, { token: rig.token });
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

describe('native records', () => {
  it('appear in the list as soon as they are issued: keyless, verified by their issuance (generation 1), no-store', async () => {
    const res = await list('?origin=native');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const row = res.body.data.find((r: { id: string }) => r.id === native.id);
    expect(row).toMatchObject({
      origin: 'native',
      annotations: null,
      tags: ['imported', 'batch-7'],
      tagVersion: 1,
      encrypted: true,
      hasKey: true,
      credential: { credentialType: 'DPP', issuerDid: rig.did },
      verification: { generation: 1, state: 'complete', summary: 'verified', checks: { proof: 'pass', retrieval: 'not_run', status: 'not_run' } },
      currencyStatus: 'current',
      capabilities: { deletable: false, annotatable: false, taggable: true, verifiable: true },
      lifecycle: 'active',
    });
    for (const secret of ['storageUri', 'digestMultibase', 'decryptionKey']) expect(row).not.toHaveProperty(secret);
    expect(res.body.failures).toEqual([]);
  });

  it('detail adds the stored copy: storageUri, digestMultibase and the decryption key (null in the clear)', async () => {
    const detail = await rig.get(native.id);
    expect(detail.status).toBe(200);
    expect(detail.headers.get('cache-control')).toBe('no-store');
    expect(detail.body).toMatchObject({ id: native.id, storageUri: native.storageUri, decryptionKey: native.decryptionKey, digestMultibase: expect.stringMatching(/^z/) });
    const clear = await rig.get(plain.id);
    expect(clear.body).toMatchObject({ storageUri: plain.storageUri, decryptionKey: null, encrypted: false, hasKey: false });
  });

  it('re-verification starts generation 2, joins it while pending, and the worker settles it verified', async () => {
    const first = await rig.t.call('POST', `${LIBRARY}/${native.id}/verify`, { token: rig.token });
    expect(first.status, first.text).toBe(202);
    expect(first.body.verification).toMatchObject({ generation: 2, state: 'pending', summary: 'pending' });
    expect(first.body.verification).not.toHaveProperty('completedAt');
    const joined = await rig.t.call('POST', `${LIBRARY}/${native.id}/verify`, { token: rig.token });
    expect(joined.body.verification.generation).toBe(2);
    expect(await rig.t.db.select().from(verificationRuns).where(eq(verificationRuns.recordId, native.id))).toHaveLength(1);
    expect((await list('?status=pending')).body.data.map((r: { id: string }) => r.id)).toContain(native.id);
    await rig.verifyPending(native.id);
    const after = (await rig.get(native.id)).body.verification;
    expect(after).toMatchObject({ generation: 2, state: 'complete', summary: 'verified' });
    // Our own storage plumbing is masked on native records.
    expect(after.checks).toEqual({ retrieval: 'not_run', decryption: 'not_run', digest: 'not_run', proof: 'pass', status: 'pass', temporal: 'pass', schemaConformance: 'pass' });
    expect(after.completedAt >= after.requestedAt).toBe(true);
  });
});

describe('a revoked credential', () => {
  it('verifies not_conformant (status is a blocking check) and shows as revoked', async () => {
    const issued = await rig.issue();
    const revoke = await rig.t.call('PUT', `/api/v1/credentials/${issued.id}/status/revocation`, { token: rig.token, headers: { 'if-version': '1' }, body: { value: true } });
    expect(revoke.status, revoke.text).toBe(200);
    expect((await rig.t.call('POST', `${LIBRARY}/${issued.id}/verify`, { token: rig.token })).status).toBe(202);
    await rig.verifyPending(issued.id);
    const detail = (await rig.get(issued.id)).body;
    expect(detail.verification).toMatchObject({ state: 'complete', summary: 'not_conformant', checks: { proof: 'pass', status: 'fail' } });
    expect(detail.lifecycle).toBe('revoked');
    expect((await list('?status=not_conformant')).body.data.map((r: { id: string }) => r.id)).toContain(issued.id);
  });
});

describe('registering an external credential', () => {
  it('answers 201 at once with generation 1 pending, then the worker verifies it and extracts its details', async () => {
    const res = await rig.register({ sourceUrl: plain.storageUri, annotations: annotations({ notes: 'From the supplier portal', dateReceived: '2026-11-01' }), tags: ['supplier-a'] });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`${LIBRARY}/${res.body.id}`);
    expect(res.body).toMatchObject({
      origin: 'external',
      sourceUrl: plain.storageUri,
      sourceDigest: expect.stringMatching(/^z/),
      encrypted: false,
      hasKey: true,
      tags: ['supplier-a'],
      annotations: { annotationVersion: 1, displayName: 'Passport from a supplier', declaredCredentialType: 'DPP', dateReceived: '2026-11-01', notes: 'From the supplier portal' },
      verification: { generation: 1, state: 'pending', summary: 'pending' },
      capabilities: { deletable: true, annotatable: true, taggable: true, verifiable: true, statusManageable: false },
      status: null,
      lifecycle: null,
    });
    // The same content as the credential issued here: registered, with a warning naming it.
    expect(res.body.warnings).toContainEqual(expect.objectContaining({ code: 'DUPLICATE_CONTENT', relatedRecordId: plain.id }));
    await rig.verifyPending(res.body.id);
    const detail = (await rig.get(res.body.id)).body;
    expect(detail.verification).toMatchObject({
      generation: 1,
      state: 'complete',
      summary: 'verified',
      checks: { retrieval: 'pass', decryption: 'pass', digest: 'pass', proof: 'pass', status: 'pass', temporal: 'pass', schemaConformance: 'pass' },
    });
    expect(detail).toMatchObject({ detailsStatus: 'EXTRACTED', credential: { issuerDid: rig.did, credentialType: 'DPP' } });
    // Our durable copy is not the source: it lives encrypted on the tenant's storage, and the detail holds its key.
    expect(detail.storageUri).not.toBe(plain.storageUri);
    expect(detail.decryptionKey).toMatch(/^[0-9a-f]{64}$/);
    const copy = await (await fetch(detail.storageUri)).json();
    expect(copy).toMatchObject({ type: 'aes-256-gcm', cipherText: expect.any(String) });
  });

  it('opens an encrypted source with the supplier key once and never keeps it', async () => {
    const res = await rig.register({ sourceUrl: native.storageUri, sourceEncryption: { decryptionKey: native.decryptionKey }, annotations: annotations() });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ encrypted: true, warnings: [expect.objectContaining({ code: 'DUPLICATE_CONTENT', relatedRecordId: native.id })] });
    expect(res.text).not.toContain(native.decryptionKey);
    const [row] = await rig.t.db.select().from(externalCredentials).where(eq(externalCredentials.id, res.body.id));
    expect(JSON.stringify(row)).not.toContain(native.decryptionKey);
    const detail = (await rig.get(res.body.id)).body;
    expect(detail.decryptionKey).not.toBe(native.decryptionKey);
    await rig.verifyPending(res.body.id);
    expect((await rig.get(res.body.id)).body.verification).toMatchObject({ state: 'complete', summary: 'verified' });
  });

  it('a retry with the same key and body answers the current record; nothing is registered twice', async () => {
    const source = await rig.issue({ encrypt: false });
    const body = { sourceUrl: source.storageUri, annotations: annotations({ displayName: 'Retry me' }) };
    const first = await rig.register(body, { key: 'retry-key-1' });
    expect(first.status, first.text).toBe(201);
    const again = await rig.register(body, { key: 'retry-key-1' });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const rows = await rig.t.db.select().from(externalCredentials).where(eq(externalCredentials.sourceUrl, source.storageUri));
    expect(rows).toHaveLength(1);
  });

  it('a signed credential that does not conform to its schema is still verified, with an advisory', async () => {
    const payload = samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, rig.did);
    payload.credentialSubject = { id: 'https://id.example.com/01/09520123456788', type: ['Product'] };
    const signed = await rig.vc.call('POST', '/v2/credentials/issue', { json: { credential: payload, options: { proofFormat: 'EnvelopingProofJose' } } });
    expect(signed.status).toBe(201);
    const stored = await rig.storage.call('POST', '/api/v4/public', { json: { data: signed.body.verifiableCredential, bucket: 'documents', id: crypto.randomUUID() } });
    const { uri } = (await stored.json()) as { uri: string };
    const res = await rig.register({ sourceUrl: uri, annotations: annotations() });
    expect(res.status, res.text).toBe(201);
    await rig.verifyPending(res.body.id);
    const detail = (await rig.get(res.body.id)).body;
    expect(detail.verification).toMatchObject({ state: 'complete', summary: 'verified', checks: { proof: 'pass', schemaConformance: 'fail' } });
    expect(detail.warnings).toContainEqual({ code: 'SCHEMA_CONFORMANCE_ADVISORY', message: expect.stringMatching(/^credential\/credentialSubject/) });
  });

  it('keeps a JSON source that is not a credential; its generation fails SOURCE_NOT_CREDENTIAL (not retryable)', async () => {
    const server = await rig.storage.call('POST', '/api/v4/public', { json: { data: { hello: 'world' }, bucket: 'documents', id: crypto.randomUUID() } });
    const { uri } = (await server.json()) as { uri: string };
    const res = await rig.register({ sourceUrl: uri, annotations: annotations() });
    expect(res.status, res.text).toBe(201);
    await rig.verifyPending(res.body.id);
    const { verification } = (await rig.get(res.body.id)).body;
    expect(verification).toMatchObject({ state: 'failed', summary: 'failed', failure: { code: 'SOURCE_NOT_CREDENTIAL', retryable: false } });
  });
});

describe('concurrent requests', () => {
  it('the same source registered twice at once: one record, the other answer is 409 with its Location; no copy left behind', async () => {
    const source = await rig.issue({ encrypt: false });
    const body = { sourceUrl: source.storageUri, annotations: annotations() };
    const copies = async () => (await readdir(join(rig.storage.settings.localDirectory, 'files'))).filter((n) => !n.startsWith('corr.')).length;
    const before = await copies();
    const answers = await Promise.all([rig.register(body), rig.register(body), rig.register(body)]);
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(1);
    for (const other of answers.filter((a) => a.status !== 201)) {
      expect(other.status).toBe(409);
      expect(other.headers.get('location')).toBe(`${LIBRARY}/${created[0]!.body.id}`);
    }
    expect(await rig.t.db.select().from(externalCredentials).where(eq(externalCredentials.sourceUrl, source.storageUri))).toHaveLength(1);
    expect(await copies()).toBe(before + 1);
  });

  it('the same key-bearing recovery sent at once: one copy swapped in, the others removed (no orphan in storage)', async () => {
    const source = await rig.issue();
    const copies = async () => (await readdir(join(rig.storage.settings.localDirectory, 'files'))).filter((n) => !n.startsWith('corr.')).length;
    const created = (await rig.register({ sourceUrl: source.storageUri, annotations: annotations() })).body;
    const before = await copies();
    const path = `${LIBRARY}/${created.id}/verify`;
    const body = { sourceEncryption: { decryptionKey: source.decryptionKey } };
    const answers = await Promise.all(Array.from({ length: 3 }, () => rig.t.call('POST', path, { token: rig.token, body })));
    for (const a of answers) expect([202, 400], a.text).toContain(a.status);
    expect(answers.filter((a) => a.status === 202).length).toBeGreaterThan(0);
    const [row] = await rig.t.db.select().from(externalCredentials).where(eq(externalCredentials.id, created.id));
    expect(row!.unopened).toBe(false);
    // The registration's ciphertext copy was replaced by exactly one opened copy.
    expect(await copies()).toBe(before);
    await rig.verifyPending(created.id);
  });

  it('re-verification asked for at once makes one generation', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => rig.t.call('POST', `${LIBRARY}/${plain.id}/verify`, { token: rig.token })));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202]);
    expect(new Set(answers.map((a) => a.body.verification.generation)).size).toBe(1);
    const pending = await rig.t.db.select().from(verificationRuns).where(eq(verificationRuns.recordId, plain.id));
    expect(pending.filter((r) => r.state === 'PENDING')).toHaveLength(1);
    await rig.verifyPending(plain.id);
  });
});

describe('annotations, tags and deletion', () => {
  it('PATCH changes annotations under If-Version and clears notes with null', async () => {
    const source = await rig.issue({ encrypt: false });
    const created = (await rig.register({ sourceUrl: source.storageUri, annotations: annotations({ notes: 'n' }) })).body;
    const res = await rig.t.call('PATCH', `${LIBRARY}/${created.id}`, { token: rig.token, headers: { 'if-version': ' +01 ' }, body: { displayName: 'Renamed', notes: null, declaredCredentialType: 'DCC' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.annotations).toEqual({ annotationVersion: 2, displayName: 'Renamed', declaredCredentialType: 'DCC', dateReceived: null, notes: null });
    // The credential itself is a DPP: the declaration now disagrees with it.
    expect(res.body.warnings).toContainEqual(expect.objectContaining({ code: 'DECLARED_TYPE_MISMATCH' }));
    expect(res.body.credential.credentialType).toBe('DPP');
    expect(res.body.updatedAt > created.updatedAt).toBe(true);
  });

  it('PUT tags replaces them, always bumps tagVersion, and an empty array clears them', async () => {
    const first = await rig.t.call('PUT', `${LIBRARY}/${native.id}/tags`, { token: rig.token, headers: { 'if-version': '1' }, body: { tags: ['zeta', 'alpha-2'] } });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ tags: ['zeta', 'alpha-2'], tagVersion: 2 });
    const same = await rig.t.call('PUT', `${LIBRARY}/${native.id}/tags`, { token: rig.token, headers: { 'if-version': '2' }, body: { tags: ['zeta', 'alpha-2'] } });
    expect(same.body.tagVersion).toBe(3);
    const cleared = await rig.t.call('PUT', `${LIBRARY}/${native.id}/tags`, { token: rig.token, headers: { 'if-version': '3' }, body: { tags: [] } });
    expect(cleared.body).toMatchObject({ tags: [], tagVersion: 4 });
  });

  it('DELETE removes an external record, its generations and its key, and its durable copy; then 204 again', async () => {
    const source = await rig.issue({ encrypt: false });
    const created = (await rig.register({ sourceUrl: source.storageUri, annotations: annotations() }, { key: 'delete-me' })).body;
    const copyUri = (await rig.get(created.id)).body.storageUri;
    expect((await fetch(copyUri)).status).toBe(200);
    const res = await rig.t.call('DELETE', `${LIBRARY}/${created.id}`, { token: rig.token });
    expect(res.status).toBe(204);
    expect((await rig.get(created.id)).status).toBe(404);
    expect(await rig.t.db.select().from(verificationRuns).where(eq(verificationRuns.recordId, created.id))).toEqual([]);
    expect((await fetch(copyUri)).status).toBe(404);
    expect((await rig.t.call('DELETE', `${LIBRARY}/${created.id}`, { token: rig.token })).status).toBe(204);
    // The key is free again: the same registration makes a new record.
    const again = await rig.register({ sourceUrl: source.storageUri, annotations: annotations() }, { key: 'delete-me' });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(created.id);
  });
});

describe('batch-get', () => {
  it('answers in first-appearance order, once per id, with NOT_FOUND failures for unknown ids', async () => {
    const res = await rig.t.call('POST', `${LIBRARY}/batch-get`, { token: rig.token, body: { ids: [plain.id, 'missing-id', native.id, plain.id] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([plain.id, native.id]);
    expect(res.body.failures).toEqual([{ id: 'missing-id', code: 'NOT_FOUND', message: 'No such credential record.' }]);
    expect(res.body.data[0]).not.toHaveProperty('decryptionKey');
  });
});

describe('the worker', () => {
  it('without a running worker a generation stays pending; once a worker starts it completes', async () => {
    const source = await rig.issue({ encrypt: false });
    const created = (await rig.register({ sourceUrl: source.storageUri, annotations: annotations() })).body;
    await new Promise((r) => setTimeout(r, 300));
    expect((await rig.get(created.id)).body.verification.state).toBe('pending');
    const worker = await startTestWorker(rig.t.databaseUrl, [libraryVerifyGeneration], undefined, rig.workerEnv);
    try {
      let state = 'pending';
      for (let i = 0; i < 200 && state === 'pending'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        state = (await rig.get(created.id)).body.verification.state;
      }
      expect(state, JSON.stringify((await rig.get(created.id)).body.verification)).toBe('complete');
    } finally {
      await worker.stop();
    }
  });
});

describe('listing', () => {
  it('sorts by issue date newest first by default and by createdAt on request, ties by id', async () => {
    const desc = ids(await list('?limit=100'));
    const asc = ids(await list('?limit=100&sort=createdAt:asc'));
    expect(desc.length).toBeGreaterThan(3);
    expect(new Set(desc)).toEqual(new Set(asc));
    const created = (await list('?limit=100&sort=createdAt:asc')).body.data.map((r: { createdAt: string }) => r.createdAt);
    expect([...created].sort()).toEqual(created);
  });
});
