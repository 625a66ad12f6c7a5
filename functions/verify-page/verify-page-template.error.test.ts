import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTemplates } from '../../db/schema/index.ts';
import { startStorage, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { callFrom } from '../../test/rig/call-from.ts';
import { freePort } from '../../test/rig/postgres-server.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { publishTemplate, TEMPLATE_STORAGE_ENV } from '../../test/rig/template-fixtures.ts';

let t: TestApp;
let storage: StorageHarness;
beforeAll(async () => {
  storage = await startStorage('local', TEMPLATE_STORAGE_ENV);
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(async () => {
  await t.close();
  await storage.close();
});

const get = (query: string) => t.call('GET', `/verify/template${query}`);

describe('GET /verify/template refusals', () => {
  it('400 naming the parameter for a missing, non-http or oversized url and a bad digestMultibase', async () => {
    const cases: [string, string][] = [
      ['', 'url: is required'],
      ['?url=', 'url: is required'],
      ['?url=ftp%3A%2F%2Fexample.com%2Ft.html', 'url: must be an http(s) URL'],
      [`?url=https%3A%2F%2Fexample.com%2F${'a'.repeat(2100)}`, 'url: must be at most 2048 characters'],
      ['?url=https%3A%2F%2Fexample.com%2Ft.html&digestMultibase=', 'digestMultibase: must be a multibase SHA-256 multihash'],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toEqual({ error: message, code: 'VALIDATION_FAILED' });
    }
  });

  it('404 for a URL that is not a published template, and for a digest other than the recorded one', async () => {
    const published = await publishTemplate(t, storage.url, '<p>{{credentialSubject.name}}</p>');
    const other = await publishTemplate(t, storage.url, '<p>other</p>');
    const missing = await get(`?url=${encodeURIComponent(`${published.storageUrl}x`)}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'url: not a render template published by this service', code: 'TEMPLATE_NOT_FOUND' });
    for (const digest of [other.digestMultibase, 'zNotAMultihash']) {
      const res = await get(`?url=${encodeURIComponent(published.storageUrl)}&digestMultibase=${digest}`);
      expect(res.status, digest).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
  });

  it('502 when the storage cannot be reached or the content no longer matches the recorded digest', async () => {
    const published = await publishTemplate(t, storage.url, '<p>kept</p>');
    const [row] = await t.db.select().from(renderTemplates).limit(1);
    const gone = `http://127.0.0.1:${await freePort()}/api/v4/documents/gone.html`;
    await t.db.insert(renderTemplates).values({ ...row!, id: undefined as never, isDefault: false, storageUrl: gone, digestMultibase: published.digestMultibase.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')) });
    // A record whose digest is not the stored content's (the object was replaced upstream).
    const altered = `${published.storageUrl}?v=2`;
    await t.db.insert(renderTemplates).values({ ...row!, id: undefined as never, isDefault: false, storageUrl: altered, digestMultibase: 'zQmYtUc4iTCbbfVSDNKvtQqrfyezPPnFvE33wFmutw9PBBk' });
    for (const url of [gone, altered]) {
      const res = await get(`?url=${encodeURIComponent(url)}`);
      expect(res.status, url).toBe(502);
      expect(res.body).toEqual({ error: 'The render template could not be read from its storage service', code: 'TEMPLATE_UNAVAILABLE' });
    }
  });
});

describe('GET /verify/template per-client limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ env: { VERIFY_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('VERIFY_RATE_LIMIT_PER_MINUTE per client address, every request counting: beyond it 429 RATE_LIMITED with Retry-After; another client and the verify route keep their own allowance', async () => {
    const client = '127.0.0.5';
    const template = (from: string) => callFrom(from, 'GET', `${limited.url}/verify/template?url=ftp%3A%2F%2Fexample.com%2Ft.html`);
    for (let i = 0; i < 3; i++) expect((await template(client)).status).toBe(400);
    const refused = await template(client);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.stringMatching(/^Too many template requests from this client; retry in \d+ s$/), code: 'RATE_LIMITED' });
    // 3 a minute is one every 20 s.
    const wait = Number(refused.headers['retry-after']);
    expect(Number.isInteger(wait) && wait >= 1 && wait <= 20, String(wait)).toBe(true);
    expect((await template('127.0.0.6')).status).toBe(400);
    const verify = await callFrom(client, 'POST', `${limited.url}/api/v1/credentials/verify`, { uri: 'not a url' });
    expect(verify).toMatchObject({ status: 400, body: { error: 'uri: must be an absolute http or https URL' } });
  });
});
