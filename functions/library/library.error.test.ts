import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalCredentials, idempotencyKeys, libraryRecords, serviceInstances, verificationRuns } from '../../db/schema/index.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { pointStorageInstance } from '../../test/rig/credential-fixtures.ts';
import { annotations, LIBRARY, startLibraryRig, type LibraryRig } from '../../test/rig/library-fixtures.ts';
import { startTestApp } from '../../test/rig/test-app.ts';

let rig: LibraryRig;
let native: { id: string; storageUri: string; decryptionKey: string | null };
let plain: { id: string; storageUri: string };
let external: { id: string };

beforeAll(async () => {
  rig = await startLibraryRig({ API_MAX_BATCH_LIMIT: '3', API_MAX_TAGS_PER_RECORD: '3', API_MAX_TAG_LENGTH: '8' });
  native = await rig.issue();
  plain = await rig.issue({ encrypt: false });
  external = (await rig.register({ sourceUrl: plain.storageUri, annotations: annotations() })).body;
});
afterAll(async () => {
  await rig?.close();
});

const counts = async () => ({
  records: (await rig.t.db.select({ n: sql<number>`count(*)::int` }).from(libraryRecords))[0]!.n,
  claims: (await rig.t.db.select({ n: sql<number>`count(*)::int` }).from(idempotencyKeys))[0]!.n,
  runs: (await rig.t.db.select({ n: sql<number>`count(*)::int` }).from(verificationRuns))[0]!.n,
});
const call = (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
  rig.t.call(method, path, { token: rig.token, ...options });
const expect400 = (res: { status: number; body: { error: string; code?: string } }, start: string, code = 'VALIDATION_FAILED') => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.startsWith(start), res.body.error).toBe(true);
  expect(res.body.code).toBe(code);
};

describe('GET /library query', () => {
  it.each([
    ['q=steel', 'q: ', 'FREE_TEXT_SEARCH_DEFERRED'],
    ['type=XYZ', 'type: ', 'VALIDATION_FAILED'],
    ['type=DPP&type=nope', 'type[1]: ', 'VALIDATION_FAILED'],
    ['origin=both', 'origin: ', 'VALIDATION_FAILED'],
    ['status=ok', 'status: ', 'VALIDATION_FAILED'],
    ['encrypted=yes', 'encrypted: ', 'VALIDATION_FAILED'],
    ['sort=name:asc', 'sort: ', 'VALIDATION_FAILED'],
    ['issuedFrom=2026-02-30', 'issuedFrom: ', 'VALIDATION_FAILED'],
    ['issuedTo=yesterday', 'issuedTo: ', 'VALIDATION_FAILED'],
    ['issuedFrom=2026-03-02&issuedTo=2026-03-01', 'issuedTo: must not be before issuedFrom', 'VALIDATION_FAILED'],
    ['limit=101', 'limit: must not exceed the maximum of 100', 'PAGE_LIMIT_EXCEEDED'],
    ['limit=0', 'limit: ', 'VALIDATION_FAILED'],
    ['origin=native&origin=external', 'origin: query parameter must not be repeated', 'VALIDATION_FAILED'],
    ['tag=', 'tag: must not be empty', 'VALIDATION_FAILED'],
  ])('400 for %s', async (query, start, code) => {
    expect400(await call('GET', `${LIBRARY}?${query}`), start, code);
  });
});

describe('POST /library/batch-get', () => {
  it('400 for no ids, and BATCH_GET_LIMIT_EXCEEDED above API_MAX_BATCH_LIMIT counted before duplicates', async () => {
    expect400(await call('POST', `${LIBRARY}/batch-get`, { body: { ids: [] } }), 'ids: ');
    expect400(await call('POST', `${LIBRARY}/batch-get`, { body: {} }), 'ids: ');
    expect400(await call('POST', `${LIBRARY}/batch-get`, { body: { ids: [native.id, native.id, native.id, native.id] } }), 'ids: must name at most 3 ids', 'BATCH_GET_LIMIT_EXCEEDED');
    expect((await call('POST', `${LIBRARY}/batch-get`, { body: { ids: [native.id, native.id, native.id] } })).status).toBe(200);
  });
});

describe('POST /library validation: 400 naming the field, nothing written', () => {
  const valid = () => ({ sourceUrl: plain.storageUri, annotations: annotations() });
  it.each([
    ['no sourceUrl', { annotations: annotations() }, 'sourceUrl: '],
    ['a blank sourceUrl', { sourceUrl: '  ', annotations: annotations() }, 'sourceUrl: '],
    ['no annotations', { sourceUrl: 'https://x.example/c.json' }, 'annotations: '],
    ['a sourceUrl that is no URL', { sourceUrl: 'not a url', annotations: annotations() }, 'sourceUrl: must be an absolute http or https URL'],
    ['a sourceUrl of another scheme', { sourceUrl: 'ftp://files.example/c.json', annotations: annotations() }, 'sourceUrl: must use http or https'],
    ['a sourceUrl with userinfo', { sourceUrl: 'https://u:p@x.example/c.json', annotations: annotations() }, 'sourceUrl: must not contain a username or password'],
    ['no displayName', { sourceUrl: 'https://x.example/c.json', annotations: { declaredCredentialType: 'DPP' } }, 'annotations.displayName: '],
    ['a long displayName', { sourceUrl: 'https://x.example/c.json', annotations: annotations({ displayName: 'x'.repeat(201) }) }, 'annotations.displayName: '],
    ['an unknown declared type', { sourceUrl: 'https://x.example/c.json', annotations: annotations({ declaredCredentialType: 'ABC' }) }, 'annotations.declaredCredentialType: '],
    ['a bad dateReceived', { sourceUrl: 'https://x.example/c.json', annotations: annotations({ dateReceived: '2026-13-01' }) }, 'annotations.dateReceived: '],
    ['long notes', { sourceUrl: 'https://x.example/c.json', annotations: annotations({ notes: 'n'.repeat(2001) }) }, 'annotations.notes: '],
    ['a short key', { sourceUrl: 'https://x.example/c.json', sourceEncryption: { decryptionKey: 'abcd' }, annotations: annotations() }, 'sourceEncryption.decryptionKey: '],
    ['another method', { sourceUrl: 'https://x.example/c.json', sourceEncryption: { decryptionKey: 'a'.repeat(64), encryptionMethod: 'DES' }, annotations: annotations() }, 'sourceEncryption.encryptionMethod: '],
    ['too many tags', { ...{ sourceUrl: 'https://x.example/c.json', annotations: annotations() }, tags: ['a', 'b', 'c', 'd'] }, 'tags: must hold at most 3 tags'],
    ['a tag too long', { sourceUrl: 'https://x.example/c.json', annotations: annotations(), tags: ['abcdefghi'] }, 'tags[0]: must be at most 8 characters'],
    ['a tag off the grammar', { sourceUrl: 'https://x.example/c.json', annotations: annotations(), tags: ['Se_cret'] }, 'tags[0]: must be lower-case'],
    ['a repeated tag', { sourceUrl: 'https://x.example/c.json', annotations: annotations(), tags: ['eu', 'us', 'eu'] }, 'tags[2]: must not repeat a tag; duplicates tags[0]'],
  ])('%s', async (_label, body, start) => {
    const before = await counts();
    const res = await rig.register(body as Record<string, unknown>);
    expect400(res, start);
    expect(res.body.error).not.toContain('Se_cret');
    expect(await counts()).toEqual(before);
    void valid;
  });

  it('the Idempotency-Key header is required and must be printable ASCII', async () => {
    const before = await counts();
    const missing = await call('POST', LIBRARY, { body: valid() });
    expect400(missing, 'Idempotency-Key: ');
    expect400(await rig.register(valid(), { key: '   ' }), 'Idempotency-Key: ');
    expect400(await rig.register(valid(), { key: 'k'.repeat(256) }), 'Idempotency-Key: ');
    expect(await counts()).toEqual(before);
  });
});

describe('POST /library refusals', () => {
  it('409 DUPLICATE_CREDENTIAL with the existing record’s Location for the same source bytes', async () => {
    const before = await counts();
    const res = await rig.register({ sourceUrl: plain.storageUri, annotations: annotations({ displayName: 'Again' }) });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This credential is already in the library.', code: 'DUPLICATE_CREDENTIAL' });
    expect(res.headers.get('location')).toBe(`${LIBRARY}/${external.id}`);
    expect(await counts()).toEqual(before);
  });

  it('422 IDEMPOTENCY_KEY_MISMATCH for the same key with another body', async () => {
    const source = await rig.issue({ encrypt: false });
    expect((await rig.register({ sourceUrl: source.storageUri, annotations: annotations() }, { key: 'mismatch-key' })).status).toBe(201);
    const before = await counts();
    const res = await rig.register({ sourceUrl: source.storageUri, annotations: annotations({ displayName: 'Other' }) }, { key: 'mismatch-key' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_MISMATCH');
    expect(await counts()).toEqual(before);
  });

  it('409 IDEMPOTENCY_KEY_IN_FLIGHT while the same key is being processed', async () => {
    const tenantId = await rig.t.tenantOf('tenantA');
    const body = { sourceUrl: 'https://in-flight.example/c.json', annotations: annotations() };
    const { bodyDigest } = await import('../../core/idempotency/idempotency-key.ts');
    await rig.t.db.insert(idempotencyKeys).values({ tenantId, operation: 'LIBRARY_REGISTER', key: 'busy-key', bodyDigest: await bodyDigest(body) });
    const res = await rig.register(body, { key: 'busy-key' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
  });

  it('422 SOURCE_UNREACHABLE when the source answers an error; the key is free again', async () => {
    const before = await counts();
    const body = { sourceUrl: `${rig.storage.url}/api/v4/documents/no-such-object.json`, annotations: annotations() };
    const res = await rig.register(body, { key: 'unreachable' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'SOURCE_UNREACHABLE', error: expect.stringContaining('sourceUrl: ') });
    expect(await counts()).toEqual(before);
  });

  it('422 DECRYPTION_FAILED for a supplier key that does not open the source; nothing kept', async () => {
    const before = await counts();
    const res = await rig.register({ sourceUrl: native.storageUri, sourceEncryption: { decryptionKey: 'ab'.repeat(32) }, annotations: annotations() });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('DECRYPTION_FAILED');
    expect(res.text).not.toContain('ab'.repeat(32));
    expect(await counts()).toEqual(before);
  });

  it('502 STORAGE_UNAVAILABLE when the durable copy cannot be stored; nothing recorded and the key is free', async () => {
    const source = await rig.issue({ encrypt: false });
    const [system] = await rig.t.db.select().from(serviceInstances).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.STORAGE));
    await pointStorageInstance(rig.t, SYSTEM_SERVICE_IDS.STORAGE, 'http://127.0.0.1:9');
    try {
      const before = await counts();
      const res = await rig.register({ sourceUrl: source.storageUri, annotations: annotations() }, { key: 'storage-down' });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('STORAGE_UNAVAILABLE');
      expect(await counts()).toEqual(before);
    } finally {
      await rig.t.db.update(serviceInstances).set({ configEncrypted: system!.configEncrypted }).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.STORAGE));
    }
    expect((await rig.register({ sourceUrl: source.storageUri, annotations: annotations() }, { key: 'storage-down' })).status).toBe(201);
  });

  it('400 SOURCE_NOT_PERMITTED for a private address unless FETCH_ALLOW_PRIVATE_URLS=true', async () => {
    const strict = await startTestApp();
    try {
      const token = await strict.token('tenantA');
      for (const sourceUrl of ['http://127.0.0.1:8080/c.json', 'http://169.254.169.254/latest', 'http://localhost/c.json']) {
        const res = await strict.call('POST', LIBRARY, { token, body: { sourceUrl, annotations: annotations() }, headers: { 'idempotency-key': crypto.randomUUID() } });
        expect400(res, 'sourceUrl: ', 'SOURCE_NOT_PERMITTED');
      }
      expect(await strict.db.select().from(libraryRecords)).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('version-guarded writes', () => {
  it('PUT tags: 404 first, then If-Version (400 INVALID_IF_VERSION), then the body, then 409 VERSION_CONFLICT', async () => {
    const path = `${LIBRARY}/${external.id}/tags`;
    expect((await call('PUT', `${LIBRARY}/missing/tags`, { body: { tags: 'bad' } })).status).toBe(404);
    for (const header of [undefined, 'abc', '0', '2147483648', '1.0', '-1']) {
      const res = await call('PUT', path, { body: { tags: 'bad' }, headers: header === undefined ? {} : { 'if-version': header } });
      expect400(res, 'If-Version: ', 'INVALID_IF_VERSION');
    }
    expect400(await call('PUT', path, { body: { tags: 'bad' }, headers: { 'if-version': '1' } }), 'tags: ');
    expect400(await call('PUT', path, { body: {}, headers: { 'if-version': '1' } }), 'tags: ');
    const stale = await call('PUT', path, { body: { tags: ['x'] }, headers: { 'if-version': '7' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'The supplied If-Version is stale.', code: 'VERSION_CONFLICT' });
    expect((await rig.get(external.id)).body).toMatchObject({ tags: [], tagVersion: 1 });
  });

  it('PATCH annotations: 403 on a native record, If-Version required, stale is 409, a PATCH without fields is 400', async () => {
    const path = `${LIBRARY}/${external.id}`;
    const nativeRes = await call('PATCH', `${LIBRARY}/${native.id}`, { body: { displayName: 'x' }, headers: { 'if-version': '1' } });
    expect(nativeRes.status).toBe(403);
    expect(nativeRes.body.code).toBe('NATIVE_CREDENTIAL_NOT_ANNOTATABLE');
    expect400(await call('PATCH', path, { body: { displayName: 'x' } }), 'If-Version: ', 'INVALID_IF_VERSION');
    expect400(await call('PATCH', path, { body: {}, headers: { 'if-version': '1' } }), 'body: at least one of');
    expect400(await call('PATCH', path, { body: { displayName: null }, headers: { 'if-version': '1' } }), 'displayName: ');
    const stale = await call('PATCH', path, { body: { displayName: 'x' }, headers: { 'if-version': '5' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('VERSION_CONFLICT');
    expect((await rig.get(external.id)).body.annotations).toMatchObject({ annotationVersion: 1, displayName: 'Passport from a supplier' });
  });

  it('DELETE of a native record is 403 NATIVE_CREDENTIAL_NOT_DELETABLE and removes nothing', async () => {
    const res = await call('DELETE', `${LIBRARY}/${native.id}`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('NATIVE_CREDENTIAL_NOT_DELETABLE');
    expect((await rig.get(native.id)).status).toBe(200);
  });
});

describe('generations that cannot complete', () => {
  it('an encrypted source registered without its key: DECRYPTION_REQUIRED until the key is sent with a re-verification', async () => {
    const res = await rig.register({ sourceUrl: native.storageUri, annotations: annotations() });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ encrypted: true, capabilities: { verifiable: false }, detailsStatus: 'EXTRACTION_PENDING' });
    await rig.verifyPending(res.body.id);
    expect((await rig.get(res.body.id)).body.verification).toMatchObject({
      state: 'failed',
      checks: { retrieval: 'pass', decryption: 'fail' },
      failure: { code: 'DECRYPTION_REQUIRED', retryable: false },
    });
    const path = `${LIBRARY}/${res.body.id}/verify`;
    expect400(await call('POST', path), 'The stored copy is encrypted', 'DECRYPTION_REQUIRED');
    const before = (await rig.get(res.body.id)).body;
    const wrong = await call('POST', path, { body: { sourceEncryption: { decryptionKey: 'ef'.repeat(32) } } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('DECRYPTION_FAILED');
    expect((await rig.get(res.body.id)).body).toEqual(before);

    const opened = await call('POST', path, { body: { sourceEncryption: { decryptionKey: native.decryptionKey } } });
    expect(opened.status, opened.text).toBe(202);
    expect(opened.text).not.toContain(native.decryptionKey);
    expect(opened.body).toMatchObject({ capabilities: { verifiable: true }, detailsStatus: 'EXTRACTED', verification: { generation: 2, state: 'pending' } });
    expect(opened.body.warnings).toContainEqual(expect.objectContaining({ code: 'DUPLICATE_CONTENT', relatedRecordId: native.id }));
    expect((await fetch(before.storageUri)).status).toBe(404);
    await rig.verifyPending(res.body.id);
    expect((await rig.get(res.body.id)).body.verification).toMatchObject({ generation: 2, state: 'complete', summary: 'verified' });
    // Opened once: a key is refused from now on, as on any record not holding ciphertext.
    const again = await call('POST', path, { body: { sourceEncryption: { decryptionKey: native.decryptionKey } } });
    expect400(again, 'sourceEncryption: ', 'SOURCE_ENCRYPTION_NOT_ALLOWED');
    expect400(await call('POST', `${LIBRARY}/${native.id}/verify`, { body: { sourceEncryption: { decryptionKey: native.decryptionKey } } }), 'sourceEncryption: ', 'SOURCE_ENCRYPTION_NOT_ALLOWED');
    expect400(await call('POST', path, { body: { sourceEncryption: { decryptionKey: 'short' } } }), 'sourceEncryption.decryptionKey: ');
  });

  it('the stored copy unreachable: STORED_COPY_UNAVAILABLE, retryable; a later generation can succeed', async () => {
    const source = await rig.issue({ encrypt: false });
    const created = (await rig.register({ sourceUrl: source.storageUri, annotations: annotations() })).body;
    const [row] = await rig.t.db.select().from(externalCredentials).where(eq(externalCredentials.id, created.id));
    await rig.t.db.update(externalCredentials).set({ storageUri: 'http://127.0.0.1:9/gone.json' }).where(eq(externalCredentials.id, created.id));
    await rig.verifyPending(created.id);
    expect((await rig.get(created.id)).body.verification).toMatchObject({ state: 'failed', failure: { code: 'STORED_COPY_UNAVAILABLE', retryable: true } });
    await rig.t.db.update(externalCredentials).set({ storageUri: row!.storageUri }).where(eq(externalCredentials.id, created.id));
    expect((await call('POST', `${LIBRARY}/${created.id}/verify`)).status).toBe(202);
    await rig.verifyPending(created.id);
    expect((await rig.get(created.id)).body.verification).toMatchObject({ generation: 2, state: 'complete', summary: 'verified', sourceChanged: false });
  });

  it('a copy that no longer matches its digest: STORED_COPY_CORRUPT, not retryable', async () => {
    const source = await rig.issue({ encrypt: false });
    const created = (await rig.register({ sourceUrl: source.storageUri, annotations: annotations() })).body;
    await rig.t.db.update(externalCredentials).set({ storageDigestMultibase: 'zQmYtUc4iTCbbfVSDNKvtQqrfyezPPnFvE33wFmutw9PBBk' }).where(eq(externalCredentials.id, created.id));
    await rig.verifyPending(created.id);
    expect((await rig.get(created.id)).body.verification).toMatchObject({ state: 'failed', checks: { digest: 'fail' }, failure: { code: 'STORED_COPY_CORRUPT', retryable: false } });
  });
});
