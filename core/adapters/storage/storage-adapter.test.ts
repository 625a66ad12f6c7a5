import { createDecipheriv, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startStorage, type StorageHarness } from '../../../storage-service/test/storage-harness.ts';
import { createGuardedFetch } from '../../net/guarded-fetch.ts';
import { AdapterError } from '../adapter-errors.ts';
import { createStorageAdapter, hexHashToMultibase, storagePathSegment } from './storage-adapter.ts';

/** The adapter against this project's storage service (a faithful implementation of the upstream contract). */
let s: StorageHarness;
const fetcher = createGuardedFetch({ allowPrivate: true, userAgent: 'css-test' });
const config = (overrides: Record<string, unknown> = {}) => ({
  baseUrl: s.url,
  apiKey: API_KEY,
  apiVersion: '4.0',
  publicBucket: 'documents',
  privateBucket: 'files',
  ...overrides,
});

beforeAll(async () => {
  s = await startStorage('local');
});
afterAll(() => s.close());

describe('storage adapter', () => {
  it('maps apiVersion to the path segment and hex hashes to multibase (contract test vector)', () => {
    expect(storagePathSegment('4.0')).toBe('v4');
    expect(storagePathSegment('3.1.0')).toBe('3.0.0');
    expect(hexHashToMultibase('d6bb7b579925baa4fe1cec41152b6577003e6a9fde6850321e36ad4ac9b3f30a')).toBe(
      'zQmcnsmRVVuPbmPwesYza9zXSbn5GJMQU4x9RnFDAZdcKCD',
    );
  });

  it.each(['4.0', '3.1.0'])('stores public and encrypted JSON through API %s with the same digest', async (apiVersion) => {
    const adapter = createStorageAdapter(config({ apiVersion }), fetcher);
    const data = { field1: 'value1' };
    const stored = await adapter.storeJson(data, { encrypt: false });
    expect(stored.uri).toContain(`/api/${storagePathSegment(apiVersion)}/documents/`);
    expect(stored.digestMultibase).toBe('zQmcnsmRVVuPbmPwesYza9zXSbn5GJMQU4x9RnFDAZdcKCD');
    expect(stored.decryptionKey).toBeUndefined();
    const secret = await adapter.storeJson(data, { encrypt: true });
    expect(secret.uri).toContain('/files/');
    expect(secret.decryptionKey).toMatch(/^[0-9a-f]{64}$/);
    const envelope = await (await fetch(secret.uri)).json();
    const d = createDecipheriv('aes-256-gcm', Buffer.from(secret.decryptionKey!, 'hex'), Buffer.from(envelope.iv, 'base64'));
    d.setAuthTag(Buffer.from(envelope.tag, 'base64'));
    expect(Buffer.concat([d.update(Buffer.from(envelope.cipherText, 'base64')), d.final()]).toString()).toBe(JSON.stringify(data));
  });

  it('stores a file and deletes by id', async () => {
    const adapter = createStorageAdapter(config(), fetcher);
    const bytes = new Uint8Array([137, 80, 78, 71, 0, 1, 2, 255]);
    const id = crypto.randomUUID();
    const stored = await adapter.storeFile(bytes, 'image/png', { encrypt: false, id });
    expect(stored.uri).toMatch(new RegExp(`/documents/${id}\\.png$`));
    expect(new Uint8Array(await (await fetch(stored.uri)).arrayBuffer())).toEqual(bytes);
    const hex = createHash('sha256').update(bytes).digest('hex');
    expect(stored.digestMultibase).toBe(hexHashToMultibase(hex));
    await adapter.delete(id, { encrypted: false });
    expect((await fetch(stored.uri)).status).toBe(404);
  });

  it('rejected (with the upstream message) vs unavailable', async () => {
    const wrongKey = createStorageAdapter(config({ apiKey: 'wrong' }), fetcher);
    const rejected = await wrongKey.storeJson({ a: 1 }, { encrypt: false }).catch((e) => e);
    expect(rejected).toBeInstanceOf(AdapterError);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 401, message: expect.stringMatching(/^Invalid API key/) });
    const id = crypto.randomUUID();
    await createStorageAdapter(config(), fetcher).storeJson({ a: 1 }, { encrypt: false, id });
    const duplicate = await createStorageAdapter(config(), fetcher).storeJson({ a: 2 }, { encrypt: false, id }).catch((e) => e);
    expect(duplicate).toMatchObject({ kind: 'rejected', status: 409, message: expect.stringMatching(/already exists/) });
    const badBucket = await createStorageAdapter(config({ publicBucket: 'no-such-bucket' }), fetcher).storeJson({ a: 1 }, { encrypt: false }).catch((e) => e);
    expect(badBucket).toMatchObject({ kind: 'rejected', status: 400, message: expect.stringMatching(/^Invalid bucket/) });
    const missing = await createStorageAdapter(config(), fetcher).delete(crypto.randomUUID(), { encrypted: false }).catch((e) => e);
    expect(missing).toMatchObject({ kind: 'rejected', status: 404 });
    const down = createStorageAdapter(config({ baseUrl: 'http://127.0.0.1:1' }), fetcher);
    expect(await down.storeJson({ a: 1 }, { encrypt: false }).catch((e) => e)).toMatchObject({ kind: 'unavailable' });
    const guarded = createStorageAdapter(config(), createGuardedFetch({ allowPrivate: false, userAgent: 'x' }));
    expect(await guarded.storeJson({ a: 1 }, { encrypt: false }).catch((e) => e)).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('private') });
  });
});
