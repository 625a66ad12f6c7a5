import { createDecipheriv, createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startStorage, type Backend, type StorageHarness } from './test/storage-harness.ts';

const sha256Hex = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const decrypt = (envelope: { cipherText: string; iv: string; tag: string }, hexKey: string) => {
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(hexKey, 'hex'), Buffer.from(envelope.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(envelope.cipherText, 'base64')), decipher.final()]).toString('utf8');
};
/** A small PNG-like payload: every byte value, so any re-encoding would show. */
const binary = new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256));
const fileForm = (bytes: Uint8Array, type: string, fields: Record<string, string> = {}, name = 'file') => {
  const form = new FormData();
  form.append(name, new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), 'upload.bin');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
};
const path = (harness: StorageHarness, uri: string) => uri.slice(harness.url.length);

const setups: { name: string; backend: Backend; env?: Record<string, string> }[] = [
  { name: 'local (small objects without the thread pool)', backend: 'local' },
  { name: 'local (thread pool only)', backend: 'local', env: { LOCAL_SYNC_IO_MAX_BYTES: '0' } },
  { name: 's3', backend: 's3' },
];

describe.each(setups)('storage service on the $name backend', ({ backend, env }) => {
  let s: StorageHarness;
  beforeAll(async () => {
    s = await startStorage(backend, env);
  }, 60_000);
  afterAll(() => s.close());

  describe('public JSON', () => {
    it('3.0.0 returns the hex SHA-256 of the server serialisation; the uri reads it back with ETag and 304', async () => {
      const data = { field1: 'value1' };
      const res = await s.call('POST', '/api/3.0.0/public', { json: { data } });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toEqual({ uri: expect.stringMatching(new RegExp(`^${s.url}/api/3\\.0\\.0/documents/[0-9a-f-]{36}\\.json$`)), hash: 'd6bb7b579925baa4fe1cec41152b6577003e6a9fde6850321e36ad4ac9b3f30a' });
      const read = await fetch(body.uri);
      expect(read.status).toBe(200);
      expect(read.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await read.text();
      expect(text).toBe('{"field1":"value1"}');
      expect(sha256Hex(text)).toBe(body.hash);
      const etag = read.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await fetch(body.uri, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
    });

    it('v4 returns digestMultibase (the contract test vector) and v4 uris', async () => {
      const res = await s.call('POST', '/api/v4/public', { json: { data: { field1: 'value1' }, bucket: 'files' } });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toEqual({ uri: expect.stringMatching(/\/api\/v4\/files\/[0-9a-f-]{36}\.json$/), digestMultibase: 'zQmcnsmRVVuPbmPwesYza9zXSbn5GJMQU4x9RnFDAZdcKCD' });
      expect(body).not.toHaveProperty('hash');
      expect((await fetch(body.uri)).status).toBe(200);
    });

    it('keeps a client-chosen id', async () => {
      const id = crypto.randomUUID();
      const body = await (await s.call('POST', '/api/3.0.0/public', { json: { id, data: { a: [1, 2, { b: null }] } } })).json();
      expect(body.uri).toBe(`${s.url}/api/3.0.0/documents/${id}.json`);
    });
  });

  describe('private uploads', () => {
    it('JSON: encrypted envelope; decrypting with only the returned key gives the original; hash of the plaintext', async () => {
      const data = { credential: { id: 'urn:uuid:1', name: 'Passport', nested: { x: 'ü✓' } } };
      const res = await s.call('POST', '/api/3.0.0/private', { json: { data } });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body.decryptionKey).toMatch(/^[0-9a-f]{64}$/);
      const envelope = await (await fetch(body.uri)).json();
      expect(envelope).toMatchObject({ type: 'aes-256-gcm', contentType: 'application/json' });
      expect(Buffer.from(envelope.iv, 'base64')).toHaveLength(12);
      expect(Buffer.from(envelope.tag, 'base64')).toHaveLength(16);
      expect(JSON.stringify(envelope)).not.toContain('Passport');
      const plaintext = decrypt(envelope, body.decryptionKey);
      expect(JSON.parse(plaintext)).toEqual(data);
      expect(body.hash).toBe(sha256Hex(plaintext));
    });

    it('a fresh key per upload', async () => {
      const [a, b] = await Promise.all(
        [1, 2].map(async () => (await s.call('POST', '/api/v4/private', { json: { data: { same: true } } })).json()),
      );
      expect(a.decryptionKey).not.toBe(b.decryptionKey);
      expect(a.digestMultibase).toBe(b.digestMultibase);
    });

    it('file: stored as a .json envelope of the base64 bytes; decrypts byte-identical', async () => {
      const res = await s.call('POST', '/api/v4/private', { form: fileForm(binary, 'image/png') });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body.uri).toMatch(/\.json$/);
      const envelope = await (await fetch(body.uri)).json();
      expect(envelope.contentType).toBe('image/png');
      const bytes = Buffer.from(decrypt(envelope, body.decryptionKey), 'base64');
      expect(new Uint8Array(bytes)).toEqual(binary);
    });
  });

  describe('public files', () => {
    it('keeps the extension of the MIME type and comes back byte-identical with its content type', async () => {
      const res = await s.call('POST', '/api/3.0.0/public', { form: fileForm(binary, 'image/png', { bucket: 'files' }) });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body.uri).toMatch(/\/api\/3\.0\.0\/files\/[0-9a-f-]{36}\.png$/);
      expect(body.hash).toBe(sha256Hex(binary));
      const read = await fetch(body.uri);
      expect(read.headers.get('content-type')).toBe('image/png');
      expect(new Uint8Array(await read.arrayBuffer())).toEqual(binary);
    });

    it('a 1.5 MB PDF round-trips (streamed back with its length); 304 and HEAD send no body', async () => {
      const big = new Uint8Array(1536 * 1024).map((_, i) => (i * 7) % 251);
      const body = await (await s.call('POST', '/api/v4/public', { form: fileForm(big, 'application/pdf') })).json();
      expect(body.uri).toMatch(/\.pdf$/);
      const read = await fetch(body.uri);
      expect(read.headers.get('content-length')).toBe(String(big.length));
      expect(new Uint8Array(await read.arrayBuffer())).toEqual(big);
      const again = await fetch(body.uri, { headers: { 'if-none-match': read.headers.get('etag')! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      const head = await fetch(body.uri, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('application/pdf');
      expect(head.headers.get('content-length')).toBe(String(big.length));
      expect(await head.text()).toBe('');
    });
  });

  describe('upload errors (never a 500)', () => {
    const post = (init: Parameters<StorageHarness['call']>[2]) => s.call('POST', '/api/3.0.0/public', init);
    const expectMessage = async (res: Response, status: number, message: RegExp) => {
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ message: expect.stringMatching(message) });
    };

    it('401 without or with a wrong X-API-Key', async () => {
      await expectMessage(await post({ json: { data: {} }, key: null }), 401, /^API key is required/);
      await expectMessage(await post({ json: { data: {} }, key: 'wrong' }), 401, /^Invalid API key/);
      await expectMessage(await post({ json: { data: {} }, key: `${API_KEY}x` }), 401, /^Invalid API key/);
    });

    it('400 for an unknown bucket, a bad id, and data that is not a JSON object', async () => {
      await expectMessage(await post({ json: { bucket: 'nope', data: {} } }), 400, /^Invalid bucket\. Must be one of the following buckets: documents, files/);
      await expectMessage(await post({ json: { id: 'not-a-uuid', data: {} } }), 400, /^Invalid id not-a-uuid/);
      for (const data of [[1, 2], 'text', 42, null, undefined]) {
        await expectMessage(await post({ json: { data } }), 400, /^Data must be a JSON object/);
      }
    });

    it('400 for malformed JSON and for other content types, 413 for oversize JSON', async () => {
      await expectMessage(await post({ raw: '{"data": {', headers: { 'content-type': 'application/json' } }), 400, /^Malformed JSON/);
      const huge = JSON.stringify({ data: { blob: 'x'.repeat(3 * 1024 * 1024) } });
      await expectMessage(await post({ raw: huge, headers: { 'content-type': 'application/json' } }), 413, /maximum allowed size of 2097152 bytes/);
      await expectMessage(await post({ raw: 'hello', headers: { 'content-type': 'text/plain' } }), 400, /application\/json or multipart/);
    });

    it('multipart: 400 without a file, for another file field, for a disallowed type; 413 over the limit', async () => {
      const noFile = new FormData();
      noFile.append('bucket', 'files');
      await expectMessage(await post({ form: noFile }), 400, /^File is required/);
      await expectMessage(await post({ form: fileForm(binary, 'image/png', {}, 'upload') }), 400, /^Unexpected field upload/);
      await expectMessage(await post({ form: fileForm(binary, 'text/html') }), 400, /^File type 'text\/html' is not allowed/);
      await expectMessage(await post({ form: fileForm(new Uint8Array(3 * 1024 * 1024), 'application/pdf') }), 413, /maximum allowed size/);
    });

    it('keeps the case of a browser-style multipart boundary', async () => {
      const boundary = '----WebKitFormBoundaryMiXeDcAsE42';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
        Buffer.from(binary),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await post({ raw: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      expect(res.status).toBe(201);
      const { uri } = await res.json();
      expect(new Uint8Array(await (await fetch(uri)).arrayBuffer())).toEqual(binary);
    });

    it('409 for an id already used in the bucket (JSON and file); nothing overwritten', async () => {
      const id = crypto.randomUUID();
      const first = await (await post({ json: { id, data: { v: 1 } } })).json();
      await expectMessage(await post({ json: { id, data: { v: 2 } } }), 409, /^A document with the provided ID already exists/);
      await expectMessage(await s.call('POST', '/api/v4/private', { json: { id, data: { v: 3 } } }), 409, /already exists/);
      expect(await (await fetch(first.uri)).json()).toEqual({ v: 1 });
      await post({ form: fileForm(binary, 'image/png', { id }) });
      await expectMessage(await post({ form: fileForm(binary, 'image/png', { id }) }), 409, /^A file with the provided ID already exists/);
    });

    it('of concurrent uploads of one id, exactly one wins', async () => {
      const id = crypto.randomUUID();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => post({ json: { id, data: { attempt: i } } })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      const winner = results.find((r) => r.status === 201)!;
      const { uri } = await winner.json();
      const stored = await (await fetch(uri)).json();
      const attempts = await Promise.all(results.map(async (r) => (r.status === 201 ? null : r.json())));
      expect(attempts.filter(Boolean)).toHaveLength(7);
      expect(typeof stored.attempt).toBe('number');
    });
  });

  describe('DELETE /api/<ver>/:bucket/:id', () => {
    it('removes every object of that id whatever its extension, public and private; then 404', async () => {
      const id = crypto.randomUUID();
      const json = await (await s.call('POST', '/api/3.0.0/public', { json: { id, bucket: 'files', data: { a: 1 } } })).json();
      const png = await (await s.call('POST', '/api/3.0.0/public', { form: fileForm(binary, 'image/png', { id, bucket: 'files' }) })).json();
      const res = await s.call('DELETE', `/api/v4/files/${id}`);
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect((await fetch(json.uri)).status).toBe(404);
      expect((await fetch(png.uri)).status).toBe(404);
      const again = await s.call('DELETE', `/api/v4/files/${id}`);
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual({ message: `Resource with id ${id} not found in bucket files.` });
      const priv = await (await s.call('POST', '/api/v4/private', { json: { data: { secret: 1 } } })).json();
      const privId = priv.uri.split('/').pop().replace('.json', '');
      expect((await s.call('DELETE', `/api/3.0.0/documents/${privId}`)).status).toBe(204);
      expect((await fetch(priv.uri)).status).toBe(404);
    });

    it('400 for an unknown bucket or a bad id; 401 without the key (nothing deleted)', async () => {
      const body = await (await s.call('POST', '/api/3.0.0/public', { json: { data: { keep: true } } })).json();
      const id = body.uri.split('/').pop().replace('.json', '');
      expect((await s.call('DELETE', `/api/3.0.0/nope/${id}`)).status).toBe(400);
      const bad = await s.call('DELETE', '/api/3.0.0/documents/not-a-uuid');
      expect(bad.status).toBe(400);
      expect((await bad.json()).message).toMatch(/^Invalid id/);
      expect((await s.call('DELETE', `/api/3.0.0/documents/${id}`, { key: null })).status).toBe(401);
      expect((await s.call('DELETE', `/api/3.0.0/documents/${id}`, { key: 'wrong' })).status).toBe(401);
      expect((await fetch(body.uri)).status).toBe(200);
    });
  });

  describe('reads and service routes', () => {
    it('404 for unknown objects, unknown buckets and path tricks', async () => {
      for (const p of [`/api/v4/documents/${crypto.randomUUID()}.json`, '/api/v4/secret/x.json', '/api/v4/documents/..%2Fx', '/api/3.1.0/public']) {
        const res = await fetch(`${s.url}${p}`);
        expect(res.status, p).toBe(404);
      }
    });

    it('health check, API docs, correlation ids', async () => {
      const health = await fetch(`${s.url}/health-check`);
      expect(await health.text()).toBe('OK');
      const docs = await (await fetch(`${s.url}/api-docs/openapi.json`)).json();
      expect(Object.keys(docs.paths)).toEqual(expect.arrayContaining(['/api/3.0.0/public', '/api/v4/private', '/api/v4/{bucket}/{id}']));
      expect((await fetch(`${s.url}/api-docs`)).status).toBe(200);
      const echoed = await s.call('POST', '/api/v4/public', { json: { data: {} }, headers: { 'x-correlation-id': 'trace-123' } });
      expect(echoed.headers.get('x-correlation-id')).toBe('trace-123');
      const generated = await s.call('POST', '/api/v4/public', { json: { data: {} }, headers: { 'x-correlation-id': 'bad id!' } });
      expect(generated.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
      // Refusals and errors carry it too: the key check, a thrown 400, a read of nothing.
      const traced = { 'x-correlation-id': 'trace-err' };
      const refused = await s.call('POST', '/api/v4/public', { json: { data: {} }, headers: traced, key: null });
      const invalid = await s.call('POST', '/api/v4/public', { json: { data: {}, bucket: 'nope' }, headers: traced });
      const missing = await s.call('GET', `/api/v4/documents/${crypto.randomUUID()}.json`, { headers: traced });
      expect([refused.status, invalid.status, missing.status]).toEqual([401, 400, 404]);
      for (const response of [refused, invalid, missing]) expect(response.headers.get('x-correlation-id')).toBe('trace-err');
    });
  });
  // Last: an early 413 closes the connection mid-upload, which the client's socket pool notices late.
  describe('bodies without a declared length', () => {
    it('a chunked body (no declared length) over the limit is a 413, JSON and multipart alike', async () => {
      const chunked = (contentType: string, size: number) => {
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent >= size) return controller.close();
            const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
            sent += chunk.length;
            controller.enqueue(chunk);
          },
        });
        return fetch(`${s.url}/api/v4/public`, {
          method: 'POST',
          headers: { 'content-type': contentType, 'x-api-key': API_KEY },
          body,
          duplex: 'half',
        } as RequestInit);
      };
      const json = await chunked('application/json', 3 * 1024 * 1024).catch((e) => e);
      if (typeof json?.status === 'number') expect(json.status).toBe(413);
      else expect(String(json)).toMatch(/fetch failed|socket|closed/i); // the server may close the socket early
      const form = await chunked('multipart/form-data; boundary=----WebKitFormBoundaryAbC', 3 * 1024 * 1024).catch((e) => e);
      if (typeof form?.status === 'number') expect([400, 413]).toContain(form.status);
      else expect(String(form)).toMatch(/fetch failed|socket|closed/i);
    });
  });
});

describe('large local objects are read as streams that are always closed', () => {
  let s: StorageHarness;
  beforeAll(async () => {
    s = await startStorage('local', { LOCAL_SYNC_IO_MAX_BYTES: '1024' });
  });
  afterAll(() => s.close());
  const openDescriptors = () => readdirSync('/proc/self/fd').length;

  it('reads, 304s, HEADs and a client that hangs up mid-body leave no file open (files above 1 MiB stream)', async () => {
    const big = new Uint8Array(1536 * 1024).map((_, i) => i % 256);
    const { uri } = await (await s.call('POST', '/api/v4/public', { form: fileForm(big, 'application/pdf') })).json();
    const etag = (await fetch(uri, { method: 'HEAD' })).headers.get('etag')!;
    await new Promise((done) => setTimeout(done, 50));
    const before = openDescriptors();
    for (let i = 0; i < 40; i++) {
      expect((await fetch(uri, { headers: { 'if-none-match': etag } })).status).toBe(304);
      expect((await fetch(uri, { method: 'HEAD' })).status).toBe(200);
      expect((await (await fetch(uri)).arrayBuffer()).byteLength).toBe(big.length);
      const aborted = new AbortController();
      const partial = await fetch(uri, { signal: aborted.signal });
      await partial.body!.getReader().read();
      aborted.abort();
    }
    await new Promise((done) => setTimeout(done, 200));
    // Sockets of the client's pool come and go; 160 leaked files would not.
    expect(openDescriptors() - before).toBeLessThan(20);
  });
});
