import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStorage, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
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

const CARD = '<article><h1>{{credentialSubject.name}}</h1><p>{{issuer.name}}</p></article>';

describe('GET /verify/template', () => {
  it('serves a template this service published, by the URL and digest a render method names, as plain text', async () => {
    const published = await publishTemplate(t, storage.url, CARD);
    const stored = await (await fetch(published.storageUrl)).text();
    for (const query of [`url=${encodeURIComponent(published.storageUrl)}`, `url=${encodeURIComponent(published.storageUrl)}&digestMultibase=${published.digestMultibase}`]) {
      const res = await t.call('GET', `/verify/template?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.text).toBe(stored);
      expect(res.text).toContain('{{credentialSubject.name}}');
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    }
  });

  it('keeps serving a template it has read once (content-addressed), while its storage is unreachable', async () => {
    const other = await startStorage('local', TEMPLATE_STORAGE_ENV);
    const app = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
    try {
      const published = await publishTemplate(app, other.url, `<p>${crypto.randomUUID()}</p>`);
      const url = `/verify/template?url=${encodeURIComponent(published.storageUrl)}`;
      expect((await app.call('GET', url)).status).toBe(200);
      await other.close();
      expect((await app.call('GET', url)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
