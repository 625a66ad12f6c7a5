import { API_KEY, startStorage, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** The DPP 0.7.0 core data model (seeded). */
export const DPP_070 = 'ca3frzta22f7lblxntvw6ukuh';

/** What the storage service must accept for render templates (HTML files). */
export const TEMPLATE_STORAGE_ENV = { ALLOWED_UPLOAD_TYPES: 'text/html' };

/** A primary STORAGE instance of the caller's tenant on a storage harness (its API key and buckets); 201 or it throws. */
export const createPrimaryStorage = async (t: TestApp, token: string, storageUrl: string, name = 'Real storage'): Promise<{ id: string }> => {
  const res = await t.call('POST', '/api/v1/services', {
    token,
    body: {
      serviceType: 'STORAGE',
      adapterType: 'STORAGE_ADAPTER',
      name,
      isPrimary: true,
      config: { baseUrl: storageUrl, apiKey: API_KEY, publicBucket: 'documents', privateBucket: 'files' },
    },
  });
  if (res.status !== 201) throw new Error(`storage instance not created: ${res.status} ${res.text}`);
  return res.body as { id: string };
};

/**
 * A render template created through the API by tenant A (sanitised and stored in the real storage
 * service at `storageUrl`, as issuance would reference it). The tenant's primary storage instance is
 * created on first use.
 */
export const publishTemplate = async (t: TestApp, storageUrl: string, template: string) => {
  const token = await t.token('tenantA');
  const instances = await t.call('GET', '/api/v1/services?serviceType=STORAGE', { token });
  const own = (instances.body?.data ?? []).find((i: { isSystemDefault: boolean }) => !i.isSystemDefault);
  const storageId = own?.id ?? (await createPrimaryStorage(t, token, storageUrl, 'Templates')).id;
  const res = await t.call('POST', '/api/v1/render-templates', {
    token,
    body: { name: `Card ${crypto.randomUUID()}`, dataModelId: DPP_070, renderMethodType: 'RenderTemplate2024', template, storageOptions: { serviceInstanceId: storageId } },
  });
  if (res.status !== 201) throw new Error(`render template not created: ${res.status} ${res.text}`);
  return res.body as { id: string; storageUrl: string; digestMultibase: string };
};

export interface RenderTemplateRig {
  t: TestApp;
  /** The real storage service (local backend; HTML, images and PDFs allowed). */
  storage: StorageHarness;
  /** Tenant A's token. */
  token: string;
  /** Tenant A's primary storage instance ("Real storage"), pointing at `storage`. */
  storageId: string;
  close(): Promise<void>;
}

/** The render-template tests' rig: the app, the real storage service, and tenant A's primary storage instance on it. */
export const startRenderTemplateRig = async (): Promise<RenderTemplateRig> => {
  const storage = await startStorage('local', { ALLOWED_UPLOAD_TYPES: 'image/png,image/jpeg,image/webp,application/pdf,text/html' });
  const t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true' } });
  const token = await t.token('tenantA');
  const instance = await createPrimaryStorage(t, token, storage.url);
  return {
    t,
    storage,
    token,
    storageId: instance.id,
    close: async () => {
      await t.close();
      await storage.close();
    },
  };
};

/** A render template's create body (a sanitisable template on the DPP 0.7.0 model) with `overrides`. */
export const renderTemplateBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Passport card',
  dataModelId: DPP_070,
  renderMethodType: 'RenderTemplate2024',
  template: '<style>h1{color:#234}</style><h1>{{credentialSubject.name}}</h1><script>alert(1)</script><img src="x" onerror="alert(1)">',
  ...overrides,
});
