import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SERVICE_IDS } from '../settings/system-services.ts';
import { renderTemplates, serviceInstances } from '../../db/schema/index.ts';
import { CORE_DATA_MODELS } from '../data-models/core-data-models.ts';
import { API_KEY, startStorage, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { startTestApp, type TestApp } from '../../test/rig/test-app.ts';
import { createLogger } from '../logging/logger.ts';
import { systemTemplateHtml, seedSystemTemplates } from './system-templates.ts';

let t: TestApp;
let storage: StorageHarness;
beforeAll(async () => {
  storage = await startStorage('local', { AVAILABLE_BUCKETS: 'public-data,private-data', DEFAULT_BUCKET: 'public-data', ALLOWED_UPLOAD_TYPES: 'text/html' });
  t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  // Point the system storage instance at the real storage service of this test.
  const config = { baseUrl: storage.url, apiKey: API_KEY, apiVersion: '4.0', publicBucket: 'public-data', privateBucket: 'private-data' };
  await t.db.update(serviceInstances).set({ configEncrypted: await t.services.secretBox.encryptJson(config) }).where(eq(serviceInstances.id, SYSTEM_SERVICE_IDS.STORAGE));
});
afterAll(async () => {
  await t.close();
  await storage.close();
});

const deps = () => ({ db: t.db, box: t.services.secretBox, fetcher: t.services.fetcher, logger: createLogger('error'), allowPrivateUrls: true });

describe('system render templates', () => {
  it('one per core model, stored in the storage service, default, read-only to tenants; seeding again adds none', async () => {
    expect(await seedSystemTemplates(deps())).toBe(CORE_DATA_MODELS.length);
    expect(await seedSystemTemplates(deps())).toBe(0);
    const rows = await t.db.select().from(renderTemplates);
    expect(rows).toHaveLength(CORE_DATA_MODELS.length);
    const token = await t.token('tenantA');
    const dpp = rows.find((r) => r.dataModelId === 'ca3frzta22f7lblxntvw6ukuh')!;
    expect(dpp).toMatchObject({ name: 'Digital Product Passport v0.7.0 Default Template', isDefault: true, renderMethodType: 'RenderTemplate2024', mediaType: 'text/html' });
    const html = await (await fetch(dpp.storageUrl)).text();
    expect(html).toContain('{{credentialSubject.name}}');
    expect(html).toContain('{{#each claimedPerformance}}');
    expect(html).toContain('aria-labelledby="untp-card-title"');
    const seen = await t.call('GET', `/api/v1/render-templates/${dpp.id}`, { token });
    expect(seen.body).toMatchObject({ isSystemDefault: true, isDefault: true });
    expect((await t.call('PATCH', `/api/v1/render-templates/${dpp.id}`, { token, body: { name: 'Mine' } })).status).toBe(403);
    expect((await t.call('DELETE', `/api/v1/render-templates/${dpp.id}`, { token })).status).toBe(403);
    const model = await t.call('GET', '/api/v1/data-models/ca3frzta22f7lblxntvw6ukuh', { token });
    expect(model.body.renderTemplates.map((r: { id: string }) => r.id)).toEqual([dpp.id]);
  });

  it('the template survives sanitising unchanged (nothing of ours is stripped)', async () => {
    const { sanitizeTemplate } = await import('./sanitize.ts');
    for (const type of ['DigitalProductPassport', 'DigitalTraceabilityEvent', 'ConformityScheme']) {
      expect(sanitizeTemplate(systemTemplateHtml(type, '0.7.0')).removed).toEqual([]);
    }
  });
});
