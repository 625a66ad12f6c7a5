import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStorage, type Backend, type StorageHarness } from './test/storage-harness.ts';

describe.each(['local', 's3'] as Backend[])('storage service on the %s backend: what was stored for a correlation id', (backend) => {
  let s: StorageHarness;
  beforeAll(async () => {
    s = await startStorage(backend);
  }, 60_000);
  afterAll(() => s.close());

  const traced = (id: string) => ({ 'x-correlation-id': id });
  const lookup = async (id: string, key?: string | null) => {
    const res = await s.call('GET', `/api/correlations/${id}`, { key });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('indexes each upload under the caller\'s id (public and private, either API), and says when an object was deleted', async () => {
    const publicId = crypto.randomUUID();
    const stored = await s.call('POST', '/api/v4/public', { json: { data: { n: 1 }, id: publicId }, headers: traced('batch-x-0') });
    expect(stored.status).toBe(201);
    const { uri } = (await stored.json()) as { uri: string };
    const privateId = crypto.randomUUID();
    const sealed = await s.call('POST', '/api/3.0.0/private', { json: { data: { n: 2 }, id: privateId, bucket: 'files' }, headers: traced('batch-x-0') });
    expect(sealed.status).toBe(201);
    const found = await lookup('batch-x-0');
    expect(found.status).toBe(200);
    expect(found.body.correlationId).toBe('batch-x-0');
    expect(found.body.objects).toEqual([
      { uri, bucket: 'documents', key: `${publicId}.json`, visibility: 'public', storedAt: expect.stringMatching(/Z$/), exists: true },
      { uri: `${s.url}/api/3.0.0/files/${privateId}.json`, bucket: 'files', key: `${privateId}.json`, visibility: 'private', storedAt: expect.any(String), exists: true },
    ]);
    // The decryption key is never kept, so never in the index.
    expect(JSON.stringify(found.body)).not.toMatch(/decryptionKey/);
    expect((await s.call('DELETE', `/api/v4/documents/${publicId}`)).status).toBe(204);
    expect((await lookup('batch-x-0')).body.objects.map((o: { exists: boolean }) => o.exists)).toEqual([false, true]);
  });

  it('indexes nothing without a caller id or for a refused upload; the index is not readable on the public route', async () => {
    const id = crypto.randomUUID();
    expect((await s.call('POST', '/api/v4/public', { json: { data: { n: 1 }, id } })).status).toBe(201);
    const duplicate = await s.call('POST', '/api/v4/public', { json: { data: { n: 1 }, id }, headers: traced('batch-y-1') });
    expect(duplicate.status).toBe(409);
    expect((await lookup('batch-y-1')).body.objects).toEqual([]);
    const other = crypto.randomUUID();
    await s.call('POST', '/api/v4/public', { json: { data: { n: 3 }, id: other }, headers: traced('batch-y-2') });
    const read = await s.call('GET', `/api/v4/documents/corr.batch-y-2.${other}.json`, { key: null });
    expect(read.status).toBe(404);
  });

  it('lists the objects stored under any correlation id in a bucket, a page at a time, with each one\'s id', async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const [i, id] of ids.entries()) await s.call('POST', '/api/v4/public', { json: { data: { i }, id }, headers: traced(`batch-z-${i}`) });
    const all = await s.call('GET', '/api/correlations?bucket=documents');
    expect(all.status).toBe(200);
    const listed = ((await all.json()) as any).objects.filter((o: { correlationId: string }) => o.correlationId.startsWith('batch-z-'));
    expect(listed).toEqual(
      ids.map((id, i) => expect.objectContaining({ correlationId: `batch-z-${i}`, key: `${id}.json`, bucket: 'documents', exists: true })),
    );
    const page = (await (await s.call('GET', '/api/correlations?bucket=documents&limit=1')).json()) as any;
    expect(page.objects).toHaveLength(1);
    const next = (await (await s.call('GET', `/api/correlations?bucket=documents&limit=1&after=${page.next}`)).json()) as any;
    expect(next.objects[0].key).not.toBe(page.objects[0].key);
    expect((await s.call('GET', '/api/correlations?bucket=nope')).status).toBe(400);
    expect((await s.call('GET', '/api/correlations?bucket=documents&limit=500')).status).toBe(400);
    expect((await s.call('GET', '/api/correlations?bucket=documents', { key: null })).status).toBe(401);
  });

  it('the lookup needs the API key and a well-formed id', async () => {
    expect((await lookup('batch-x-0', null)).status).toBe(401);
    expect((await lookup('batch-x-0', 'wrong')).status).toBe(401);
    const bad = await lookup('a.b');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/correlation id/);
  });
});
