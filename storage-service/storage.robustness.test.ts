import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from './upload-request.ts';
import { startStorage, type Backend, type StorageHarness } from './test/storage-harness.ts';

/** Hostile shapes that once were 500s are 4xx on every backend. */
describe.each(['local', 's3'] as Backend[])('storage service (%s): no 500 from input', (backend) => {
  let s: StorageHarness;
  beforeAll(async () => {
    s = await startStorage(backend);
  }, 60_000);
  afterAll(() => s.close());

  it('a JSON body nested 10,000 deep is a 400', async () => {
    const raw = `{"data":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const res = await s.call('POST', '/api/v4/public', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: `The JSON body must not nest deeper than ${MAX_JSON_DEPTH} levels.` });
  });

  it('a body at the depth limit is stored', async () => {
    const data = JSON.parse(`${'{"a":'.repeat(MAX_JSON_DEPTH - 1)}1${'}'.repeat(MAX_JSON_DEPTH - 1)}`);
    expect((await s.call('POST', '/api/v4/public', { json: { data } })).status).toBe(201);
  });

  it.each([300, 5000])('a GET with a %i-character id is a 404', async (length) => {
    const res = await s.call('GET', `/api/v4/documents/${'a'.repeat(length)}.json`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found.' });
  });
});
