import { eq } from 'drizzle-orm';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultDid } from '../../core/dids/default-did.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { createPayloadChecks } from '../../core/credentials/payload-validation.ts';
import { documentSettings, offlineFetcher } from '../../core/credentials/test-support/offline.ts';
import { credentials, idempotencyKeys } from '../../db/schema/index.ts';
import { vcAdapterOf } from '../../test/rig/did-fixtures.ts';
import { decodeEnveloped, issueBody, openStoredCopy, SAMPLES, samplePayload, startIssuanceRig, type IssuanceRig } from '../../test/rig/credential-fixtures.ts';

const DPP_070 = 'ca3frzta22f7lblxntvw6ukuh';
let rig: IssuanceRig;
const schemas = createPayloadChecks(offlineFetcher(), documentSettings());

beforeAll(async () => {
  rig = await startIssuanceRig({ CREDENTIAL_STATUS_MULTIPLE_PURPOSES_ENABLED: 'true' });
});
afterAll(async () => {
  await rig?.close();
});

const issue = (body: unknown, headers: Record<string, string> = {}) => rig.t.call('POST', '/api/v1/credentials', { token: rig.token, body, headers });
const record = (id: string) => rig.t.call('GET', `/api/v1/credentials/${id}`, { token: rig.token });
const sample = (version: '0.7.0' | '0.6.1', type: string) => samplePayload((SAMPLES[version] as Record<string, string>)[type]!, rig.did);
const schemaUrlOf = async (dataModelId: string) => (await rig.t.call('GET', `/api/v1/data-models/${dataModelId}`, { token: rig.token })).body.schemaUrl as string;

/** Issues, reads the record back, opens the stored copy with the returned key and decodes it. */
const issueAndOpen = async (body: Record<string, unknown>) => {
  const res = await issue(body);
  expect(res.status, res.text).toBe(201);
  const got = await record(res.body.credentialId);
  expect(got.status).toBe(200);
  const enveloped = await openStoredCopy(got.body.storageUri, got.body.decryptionKey);
  return { issued: res.body, record: got.body, enveloped, decoded: decodeEnveloped(enveloped) };
};

const FIVE_TYPES = Object.keys(SAMPLES['0.7.0']);

describe('POST /credentials: every type and version issues side by side', () => {
  it.each([...FIVE_TYPES.map((type) => ['0.7.0', type] as const), ['0.6.1', 'DigitalProductPassport'] as const, ['0.6.1', 'DigitalConformityCredential'] as const])(
    '%s %s: signed by the issuer DID with a revocation entry; the stored copy verifies and meets its UNTP schema',
    async (version, type) => {
      const payload = sample(version, type);
      const { issued, record: rec, enveloped, decoded } = await issueAndOpen(issueBody(type, version, payload));
      expect(issued.credentialId).toMatch(/^[a-z][a-z0-9]{23}$/);
      expect(rec).toMatchObject({ credentialType: type, version, issuerDid: rig.did, encrypted: true, coreCredentialType: type, detailsStatus: 'EXTRACTED' });
      expect(rec.digestMultibase).toMatch(/^z[1-9A-HJ-NP-Za-km-z]+$/);
      expect(rec.decryptionKey).toMatch(/^[0-9a-f]{64}$/);
      expect(enveloped).toMatchObject({ type: 'EnvelopedVerifiableCredential', id: expect.stringMatching(/^data:application\/vc\+jwt,/) });
      expect(decoded.issuer).toMatchObject({ id: rig.did });
      expect(decoded.credentialSubject).toEqual(payload.credentialSubject);
      const [entry] = rec.statusEntries;
      expect(rec.statusEntries).toHaveLength(1);
      expect(decoded.credentialStatus).toEqual({
        id: expect.any(String),
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
        statusListIndex: Number(entry.statusListIndex),
        statusListCredential: entry.statusListCredential,
      });
      expect((await vcAdapterOf(rig.vc).verify(enveloped as never)).verified).toBe(true);
      await expect(schemas.validateSchemas(decoded, [await schemaUrlOf(rec.dataModelId)])).resolves.toBeUndefined();
    },
  );
});

describe('GET /credentials/{id}: the verify link', () => {
  it('verifyUrl is the keyless verify page link; with the record key the public verify route verifies what it points at', async () => {
    const { record: rec } = await issueAndOpen(issueBody('DigitalProductPassport', '0.7.0', sample('0.7.0', 'DigitalProductPassport')));
    const link = new URL(rec.verifyUrl);
    expect(`${link.origin}${link.pathname}`).toBe(`${rig.t.url}/verify`);
    expect([...link.searchParams.keys()]).toEqual(['q']);
    expect(rec.verifyUrl).not.toContain(rec.decryptionKey);
    const { payload } = JSON.parse(link.searchParams.get('q')!);
    expect(payload).toEqual({ uri: rec.storageUri, digestMultibase: rec.digestMultibase });
    const checked = await rig.t.call('POST', '/api/v1/credentials/verify', { body: { ...payload, decryptionKey: rec.decryptionKey } });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.verified).toBe(true);
  });
});

describe('POST /credentials: storage, status and tags', () => {
  it('storageOptions.encrypt false stores the enveloped credential in the clear; the record has no key', async () => {
    const { record: rec, enveloped } = await issueAndOpen(issueBody('DigitalFacilityRecord', '0.7.0', sample('0.7.0', 'DigitalFacilityRecord'), { storageOptions: { encrypt: false } }));
    expect(rec).toMatchObject({ encrypted: false, decryptionKey: null });
    expect(rec.storageUri).toContain('/api/v4/documents/');
    expect(enveloped.type).toBe('EnvelopedVerifiableCredential');
  });

  it('the decryption key is kept sealed at rest, never as issued', async () => {
    const { record: rec } = await issueAndOpen(issueBody('DigitalFacilityRecord', '0.7.0', sample('0.7.0', 'DigitalFacilityRecord')));
    const [row] = await rig.t.db.select({ wrapped: credentials.wrappedDecryptionKey }).from(credentials).where(eq(credentials.id, rec.id));
    expect(row!.wrapped).not.toContain(rec.decryptionKey);
    expect(await rig.t.services.secretBox.decrypt(row!.wrapped!)).toBe(rec.decryptionKey);
  });

  it('statusPurposes picks the purposes; two become an array of entries in the signed credential', async () => {
    const { record: rec, decoded } = await issueAndOpen(issueBody('DigitalProductPassport', '0.7.0', sample('0.7.0', 'DigitalProductPassport'), { statusPurposes: ['suspension', 'revocation'] }));
    expect(rec.statusEntries.map((e: { statusPurpose: string }) => e.statusPurpose).sort()).toEqual(['revocation', 'suspension']);
    expect(decoded.credentialStatus).toHaveLength(2);
    expect((decoded.credentialStatus as { statusPurpose: string }[]).map((e) => e.statusPurpose)).toEqual(['suspension', 'revocation']);
    const single = await issueAndOpen(issueBody('DigitalProductPassport', '0.7.0', sample('0.7.0', 'DigitalProductPassport'), { statusPurposes: ['suspension'] }));
    expect(single.decoded.credentialStatus).toMatchObject({ statusPurpose: 'suspension' });
  });

  it('keeps tags in the given order on the record, never in the credential', async () => {
    const { record: rec, decoded } = await issueAndOpen(issueBody('DigitalProductPassport', '0.7.0', sample('0.7.0', 'DigitalProductPassport'), { tags: ['batch-7', 'export', 'q1'] }));
    expect(rec.tags).toEqual(['batch-7', 'export', 'q1']);
    expect(JSON.stringify(decoded)).not.toContain('batch-7');
  });

  it('a DCC 0.7.0 naming a scheme outside the catalogue issues with a conformity advisory warning', async () => {
    const payload = sample('0.7.0', 'DigitalConformityCredential');
    const res = await issue(issueBody('DigitalConformityCredential', '0.7.0', payload));
    expect(res.status, res.text).toBe(201);
    expect(res.body.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'conformity-scheme.not-found', pointer: expect.stringMatching(/^\/credentialSubject\//) })]));
  });
});

describe('Idempotency-Key', () => {
  const body = () => issueBody('DigitalIdentityAnchor', '0.7.0', sample('0.7.0', 'DigitalIdentityAnchor'));

  it('the same key and body replays the first 201; nothing is issued twice', async () => {
    const b = body();
    const first = await issue(b, { 'Idempotency-Key': 'order-1' });
    expect(first.status).toBe(201);
    const again = await issue(b, { 'Idempotency-Key': 'order-1' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const listed = await rig.t.call('GET', '/api/v1/credentials?credentialType=DigitalIdentityAnchor&limit=100', { token: rig.token });
    expect(listed.body.data.filter((c: { id: string }) => c.id === first.body.credentialId)).toHaveLength(1);
  });

  it('another body under the same key is 422 IDEMPOTENCY_KEY_MISMATCH; the key is per tenant', async () => {
    await issue(body(), { 'Idempotency-Key': 'order-2' });
    const other = body();
    (other.credentialPayload as Record<string, unknown>).name = 'Another anchor';
    const res = await issue(other, { 'Idempotency-Key': 'order-2' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: expect.stringMatching(/^Idempotency-Key: /), code: 'IDEMPOTENCY_KEY_MISMATCH' });
    const tenantB = await rig.t.token('tenantB');
    const didB = await rig.didOf('tenantB');
    const theirs = await rig.t.call('POST', '/api/v1/credentials', { token: tenantB, body: issueBody('DigitalIdentityAnchor', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalIdentityAnchor, didB)), headers: { 'Idempotency-Key': 'order-2' } });
    expect(theirs.status).toBe(201);
  });

  it('a claim still in flight is 409 IDEMPOTENCY_KEY_IN_FLIGHT until it is stale, then it is taken over', async () => {
    const b = body();
    const tenantId = await rig.t.tenantOf('tenantA');
    const { bodyDigest } = await import('../../core/idempotency/idempotency-key.ts');
    await rig.t.db.insert(idempotencyKeys).values({ tenantId, operation: 'CREDENTIAL_ISSUE', key: 'order-3', bodyDigest: await bodyDigest(b) });
    const busy = await issue(b, { 'Idempotency-Key': 'order-3' });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
    await rig.t.db.update(idempotencyKeys).set({ claimedAt: new Date(Date.now() - 11 * 60_000) }).where(eq(idempotencyKeys.key, 'order-3'));
    const taken = await issue(b, { 'Idempotency-Key': 'order-3' });
    expect(taken.status, taken.text).toBe(201);
    expect((await issue(b, { 'Idempotency-Key': 'order-3' })).body).toEqual(taken.body);
  });

  it('a credential recorded whose answer was not (a crash in between) replays its id, and nothing is issued again', async () => {
    const b = body();
    const first = await issue(b, { 'Idempotency-Key': 'order-5' });
    expect(first.status).toBe(201);
    await rig.t.db.update(idempotencyKeys).set({ sealedResponse: null, finalisedAt: null }).where(eq(idempotencyKeys.key, 'order-5'));
    const again = await issue(b, { 'Idempotency-Key': 'order-5' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ credentialId: first.body.credentialId });
  });

  it('deleting the credential frees its key', async () => {
    const b = body();
    const first = await issue(b, { 'Idempotency-Key': 'order-4' });
    expect((await rig.t.call('DELETE', `/api/v1/credentials/${first.body.credentialId}`, { token: rig.token })).status).toBe(204);
    const again = await issue(b, { 'Idempotency-Key': 'order-4' });
    expect(again.status).toBe(201);
    expect(again.body.credentialId).not.toBe(first.body.credentialId);
  });
});

describe('credential records', () => {
  it("GET /credentials lists the tenant's credentials newest first, in the list envelope, without keys", async () => {
    const a = await issue(issueBody('DigitalTraceabilityEvent', '0.7.0', sample('0.7.0', 'DigitalTraceabilityEvent')));
    const b = await issue(issueBody('DigitalTraceabilityEvent', '0.7.0', sample('0.7.0', 'DigitalTraceabilityEvent'), { storageOptions: { encrypt: false } }));
    const res = await rig.t.call('GET', '/api/v1/credentials?credentialType=DigitalTraceabilityEvent', { token: rig.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id).slice(0, 2)).toEqual([b.body.credentialId, a.body.credentialId]);
    expect(res.body.pagination).toMatchObject({ offset: 0, limit: 20, total: res.body.data.length, hasMore: false });
    for (const item of res.body.data) {
      expect(item).not.toHaveProperty('decryptionKey');
      expect(item).toMatchObject({ credentialType: 'DigitalTraceabilityEvent', storageUri: expect.any(String), digestMultibase: expect.stringMatching(/^z/), statusEntries: [expect.objectContaining({ statusPurpose: 'revocation' })] });
    }
    const page = await rig.t.call('GET', '/api/v1/credentials?credentialType=DigitalTraceabilityEvent&limit=1&offset=1', { token: rig.token });
    expect(page.body.data.map((c: { id: string }) => c.id)).toEqual([a.body.credentialId]);
    expect(page.body.pagination).toMatchObject({ limit: 1, offset: 1, hasMore: page.body.pagination.total > 2 });
  });

  it('filters by version and isPublished', async () => {
    await issue(issueBody('DigitalConformityCredential', '0.6.1', sample('0.6.1', 'DigitalConformityCredential')));
    const old = await rig.t.call('GET', '/api/v1/credentials?version=0.6.1&limit=100', { token: rig.token });
    expect(old.body.data.length).toBeGreaterThan(0);
    expect(old.body.data.every((c: { version: string }) => c.version === '0.6.1')).toBe(true);
    const unpublished = await rig.t.call('GET', '/api/v1/credentials?isPublished=false&limit=100', { token: rig.token });
    expect(unpublished.body.pagination.total).toBe((await rig.t.call('GET', '/api/v1/credentials?limit=100', { token: rig.token })).body.pagination.total);
    const published = await rig.t.call('GET', '/api/v1/credentials?isPublished=true', { token: rig.token });
    expect(published.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it('DELETE removes the record and the stored copy, and revokes nothing', async () => {
    const { record: rec } = await issueAndOpen(issueBody('DigitalFacilityRecord', '0.7.0', sample('0.7.0', 'DigitalFacilityRecord')));
    const del = await rig.t.call('DELETE', `/api/v1/credentials/${rec.id}`, { token: rig.token });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await record(rec.id)).status).toBe(404);
    expect((await fetch(rec.storageUri)).status).toBe(404);
    const [entry] = rec.statusEntries;
    const bit = await vcAdapterOf(rig.vc).checkStatus(
      { id: `${entry.statusListCredential}#${entry.statusListIndex}`, type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListCredential: entry.statusListCredential, statusListIndex: Number(entry.statusListIndex) },
      rig.did,
    );
    expect(bit.revoked).toBe(false);
    expect((await rig.t.call('DELETE', `/api/v1/credentials/${rec.id}`, { token: rig.token })).status).toBe(404);
  });
});

describe('issuers and data models', () => {
  it('the system DEFAULT DID may issue for any tenant', async () => {
    const systemDid = await ensureDefaultDid({ db: rig.t.db, box: rig.t.services.secretBox, fetcher: rig.t.services.fetcher, logger: rig.t.services.logger }, 'default');
    const payload = samplePayload(SAMPLES['0.7.0'].DigitalFacilityRecord, systemDid);
    const { record: rec, decoded } = await issueAndOpen(issueBody('DigitalFacilityRecord', '0.7.0', payload));
    expect(rec).toMatchObject({ issuerDid: systemDid, vcServiceInstanceId: SYSTEM_SERVICE_IDS.VC });
    expect(decoded.issuer).toMatchObject({ id: systemDid });
  });

  it("a tenant extension validates against its parent's schema and its own, and records its type with the core type", async () => {
    const schema = { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: '^Digital Product Passport' } } };
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(schema)));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    try {
      const schemaUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/copper-passport.json`;
      const model = await rig.t.call('POST', '/api/v1/data-models', {
        token: rig.token,
        body: { name: 'Copper passport', credentialType: 'CopperPassport', version: '0.7.0', parentConfigId: DPP_070, schemaUrl, contextUrl: 'https://vocabulary.uncefact.org/untp/0.7.0/context/' },
      });
      expect(model.status, model.text).toBe(201);
      const { record: rec } = await issueAndOpen(issueBody('CopperPassport', '0.7.0', sample('0.7.0', 'DigitalProductPassport')));
      expect(rec).toMatchObject({ credentialType: 'CopperPassport', version: '0.7.0', dataModelId: model.body.id, coreCredentialType: 'DigitalProductPassport' });
      const renamed = { ...sample('0.7.0', 'DigitalProductPassport'), name: 'Copper concentrate' };
      const refused = await issue(issueBody('CopperPassport', '0.7.0', renamed));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'SCHEMA_DOCUMENT_INVALID', pointer: '/name' });
      expect(refused.body.error).toContain('copper-passport.json');
      // Another tenant does not see this tenant's model: its pair is refused as an unknown one.
      const unknownPair = { error: 'credentialType: no data model for CopperPassport version 0.7.0 is available to this tenant', code: 'DATA_MODEL_NOT_FOUND' };
      const theirs = await rig.t.call('POST', '/api/v1/credentials', {
        token: await rig.t.token('tenantB'),
        body: issueBody('CopperPassport', '0.7.0', samplePayload(SAMPLES['0.7.0'].DigitalProductPassport, await rig.didOf('tenantB'))),
      });
      expect(theirs.status).toBe(400);
      expect(theirs.body).toEqual(unknownPair);
    } finally {
      server.close();
    }
  });
});
