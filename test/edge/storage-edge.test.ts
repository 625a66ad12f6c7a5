import { createDecipheriv, createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEdgeEntry } from '../../scripts/edge-bundle.ts';
import { freePort } from '../rig/postgres-server.ts';

/**
 * The storage service bundled as an edge function and run in workerd (miniflare) over a real S3
 * protocol server (s3rver): uploads of both kinds, reads, decryption with the returned key, delete,
 * the key check, and the refusal of settings an edge runtime cannot honour.
 */
describe('the storage service as an edge function in workerd', () => {
  const API_KEY = 'edge-storage-key';
  const base = 'http://storage.edge.test';
  /** One worker per configuration, each on its own host. */
  const HOSTS = { storage: base, 'local-storage': 'http://local.edge.test', 'no-keys': 'http://nokeys.edge.test' };
  let dir: string;
  let s3: S3rver;
  let mf: Miniflare;

  const call = async (worker: keyof typeof HOSTS, method: string, path: string, init: { json?: unknown; key?: string | null; form?: FormData } = {}) => {
    const headers: Record<string, string> = {};
    if (init.key !== null) headers['x-api-key'] = init.key ?? API_KEY;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    let body: string | Uint8Array | undefined = init.json !== undefined ? JSON.stringify(init.json) : undefined;
    if (init.form) {
      // Encoded here, so the worker receives the bytes and boundary a client would send.
      const encoded = new Response(init.form);
      headers['content-type'] = encoded.headers.get('content-type')!;
      body = new Uint8Array(await encoded.arrayBuffer());
    }
    const response = await mf.dispatchFetch(`${HOSTS[worker]}${path}`, { method, headers, body });
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
  };
  const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'css-edge-storage-'));
    const port = await freePort();
    s3 = new S3rver({ port, address: '127.0.0.1', directory: join(dir, 's3'), silent: true, configureBuckets: [{ name: 'documents', configs: [] }] });
    await s3.run();
    const bundle = join(dir, 'storage.js');
    await bundleEdgeEntry('storage-service/edge.ts', bundle, 'browser');
    const bindings = {
      API_KEY,
      PUBLIC_URL: base,
      STORAGE_TYPE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      AVAILABLE_BUCKETS: 'documents',
      DEFAULT_BUCKET: 'documents',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      LOG_LEVEL: 'error',
    };
    const common = { modules: true, modulesRoot: dir, scriptPath: bundle, compatibilityDate: '2026-07-01', compatibilityFlags: ['nodejs_compat'] };
    mf = new Miniflare({
      workers: [
        { ...common, name: 'storage', bindings, routes: ['storage.edge.test/*'] },
        { ...common, name: 'local-storage', bindings: { ...bindings, STORAGE_TYPE: 'local' }, routes: ['local.edge.test/*'] },
        { ...common, name: 'no-keys', bindings: { ...bindings, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' }, routes: ['nokeys.edge.test/*'] },
      ],
    });
    await mf.ready;
  }, 120_000);

  afterAll(async () => {
    await mf?.dispose();
    await s3?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('stores public JSON (v4 digest, 3.0.0 hash) and reads it back through the worker', async () => {
    const data = { field1: 'value1' };
    const v4 = await call('storage', 'POST', '/api/v4/public', { json: { data } });
    expect(v4.status).toBe(201);
    const stored = json(v4.bytes);
    expect(stored).toEqual({ uri: expect.stringMatching(/^http:\/\/storage\.edge\.test\/api\/v4\/documents\/[0-9a-f-]{36}\.json$/), digestMultibase: 'zQmcnsmRVVuPbmPwesYza9zXSbn5GJMQU4x9RnFDAZdcKCD' });
    const read = await call('storage', 'GET', new URL(stored.uri).pathname, { key: null });
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json(read.bytes)).toEqual(data);
    const v3 = json((await call('storage', 'POST', '/api/3.0.0/public', { json: { data } })).bytes);
    expect(v3.hash).toBe('d6bb7b579925baa4fe1cec41152b6577003e6a9fde6850321e36ad4ac9b3f30a');
  });

  it('serves its OpenAPI document from zod schemas and their .openapi() metadata (the bundle keeps the generator)', async () => {
    const docs = await call('storage', 'GET', '/api-docs/openapi.json', { key: null });
    expect(docs.status).toBe(200);
    const doc = json(docs.bytes);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/3.0.0/public', '/api/v4/private', '/api/v4/{bucket}/{id}']));
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['StorageError', 'JsonUpload', 'FileUpload']));
    expect(doc.components.schemas.JsonUpload.properties.id).toMatchObject({ type: 'string', format: 'uuid', description: 'Generated when omitted' });
  });

  it('encrypts private uploads with AES-256-GCM; the returned key decrypts what is stored', async () => {
    const data = { secret: 'edge', n: 1 };
    const res = json((await call('storage', 'POST', '/api/v4/private', { json: { data } })).bytes);
    expect(res.decryptionKey).toMatch(/^[0-9a-f]{64}$/);
    const envelope = json((await call('storage', 'GET', new URL(res.uri).pathname, { key: null })).bytes);
    expect(envelope).toMatchObject({ type: 'aes-256-gcm', contentType: 'application/json' });
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(res.decryptionKey, 'hex'), Buffer.from(envelope.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(envelope.cipherText, 'base64')), decipher.final()]).toString('utf8');
    expect(JSON.parse(plain)).toEqual(data);
  });

  it('stores a multipart file byte-identical; a duplicate id is a 409; delete by id removes it', async () => {
    const bytes = new Uint8Array(300 * 1024).map((_, i) => (i * 31) % 256);
    const id = crypto.randomUUID();
    const form = () => {
      const f = new FormData();
      f.append('file', new Blob([bytes], { type: 'application/pdf' }), 'doc.pdf');
      f.append('id', id);
      return f;
    };
    const created = await call('storage', 'POST', '/api/v4/public', { form: form() });
    expect(created.status).toBe(201);
    const { uri, digestMultibase } = json(created.bytes);
    expect(digestMultibase).toMatch(/^zQm/);
    const read = await call('storage', 'GET', new URL(uri).pathname, { key: null });
    expect(createHash('sha256').update(read.bytes).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect((await call('storage', 'POST', '/api/v4/public', { form: form() })).status).toBe(409);
    expect((await call('storage', 'DELETE', `/api/v4/documents/${id}`)).status).toBe(204);
    expect((await call('storage', 'GET', new URL(uri).pathname, { key: null })).status).toBe(404);
    expect((await call('storage', 'DELETE', `/api/v4/documents/${id}`)).status).toBe(404);
  });

  it('writes need the key: 401 without it and with a wrong one', async () => {
    const missing = await call('storage', 'POST', '/api/v4/public', { json: { data: {} }, key: null });
    expect(missing.status).toBe(401);
    expect(json(missing.bytes).message).toMatch(/API key is required/);
    expect((await call('storage', 'DELETE', `/api/v4/documents/${crypto.randomUUID()}`, { key: 'wrong' })).status).toBe(401);
  });

  it('refuses the local backend, and S3 without keys, with a 500 naming the setting', async () => {
    const res = await call('local-storage', 'GET', '/health-check', { key: null });
    expect(res.status).toBe(500);
    expect(json(res.bytes).message).toMatch(/STORAGE_TYPE must be s3/);
    const keyless = await call('no-keys', 'POST', '/api/v4/public', { json: { data: {} } });
    expect(keyless.status).toBe(500);
    expect(json(keyless.bytes).message).toMatch(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are required/);
  });
});
