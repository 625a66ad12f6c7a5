import { API_KEY } from '../../storage-service/test/storage-harness.ts';
import type { TestApp } from './test-app.ts';

/** The DPP 0.7.0 core data model (seeded). */
export const DPP_070 = 'ca3frzta22f7lblxntvw6ukuh';

/** What the storage service must accept for render templates (HTML files). */
export const TEMPLATE_STORAGE_ENV = { ALLOWED_UPLOAD_TYPES: 'text/html' };

/**
 * A render template created through the API by tenant A (sanitised and stored in the real storage
 * service at `storageUrl`, as issuance would reference it). The tenant's primary storage instance is
 * created on first use.
 */
export const publishTemplate = async (t: TestApp, storageUrl: string, template: string) => {
  const token = await t.token('tenantA');
  const instances = await t.call('GET', '/api/v1/services?serviceType=STORAGE', { token });
  const own = (instances.body?.data ?? []).find((i: { isSystemDefault: boolean }) => !i.isSystemDefault);
  const storageId =
    own?.id ??
    (
      await t.call('POST', '/api/v1/services', {
        token,
        body: { serviceType: 'STORAGE', adapterType: 'STORAGE_ADAPTER', name: 'Templates', isPrimary: true, config: { baseUrl: storageUrl, apiKey: API_KEY, publicBucket: 'documents', privateBucket: 'files' } },
      })
    ).body.id;
  const res = await t.call('POST', '/api/v1/render-templates', {
    token,
    body: { name: `Card ${crypto.randomUUID()}`, dataModelId: DPP_070, renderMethodType: 'RenderTemplate2024', template, storageOptions: { serviceInstanceId: storageId } },
  });
  if (res.status !== 201) throw new Error(`render template not created: ${res.status} ${res.text}`);
  return res.body as { id: string; storageUrl: string; digestMultibase: string };
};
