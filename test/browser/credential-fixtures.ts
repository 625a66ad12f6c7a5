import { createStorageAdapter, type StorageAdapter } from '../../core/adapters/storage/storage-adapter.ts';
import { createGuardedFetch } from '../../core/net/guarded-fetch.ts';
import { startStorage, API_KEY as STORAGE_KEY, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
import { jwsOf, type VcService } from '../../vc-service/test/vc-harness.ts';
import { publishTemplate, TEMPLATE_STORAGE_ENV } from '../rig/template-fixtures.ts';
import { useVcServiceAsSystemVc } from '../rig/did-fixtures.ts';
import { startTestApp, type TestApp } from '../rig/test-app.ts';

export interface Published {
  uri: string;
  digestMultibase: string;
  decryptionKey?: string;
}

export interface CredentialWorld {
  app: TestApp;
  vc: VcService;
  storage: StorageHarness;
  issuer: string;
  /** A UNTP-shaped credential issued by `issuer`, with fields merged over the defaults. */
  credential(extra?: Record<string, unknown>): Record<string, unknown>;
  /** Signs with the real VC service and stores with the real storage service (encrypted when asked). */
  publish(credential: Record<string, unknown>, options?: { encrypt?: boolean }): Promise<Published>;
  /** Signed, then its payload changed after signing (the signature no longer matches). */
  publishTampered(credential: Record<string, unknown>, change: Record<string, unknown>): Promise<Published>;
  /** Any JSON stored as is (an envelope with a broken part, a document that is not a credential). */
  store(document: Record<string, unknown>): Promise<Published>;
  /** A render template created through the API (stored in the storage service): its URL and digest. */
  publishTemplate(html: string): Promise<{ storageUrl: string; digestMultibase: string }>;
  close(): Promise<void>;
}

/**
 * The web app (its verify route and page) with the system VC instance on the real VC service, a DID
 * to issue with, and the real storage service holding what the page is pointed at (on loopback, so
 * private addresses are allowed).
 */
export const startCredentialWorld = async (options: { /** The VC service's extra environment (a foreign issuer's `vcEnv`). */ vcEnv?: Record<string, string> } = {}): Promise<CredentialWorld> => {
  const app = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true', VERIFY_RATE_LIMIT_PER_MINUTE: '10000' }, fetch: { allowPrivate: true } });
  const vc = await useVcServiceAsSystemVc(app, options.vcEnv);
  const storage = await startStorage('local', TEMPLATE_STORAGE_ENV);
  const { did } = (await vc.agent('didManagerCreate', { alias: 'issuer.example.com' })).body as { did: string };
  const adapter: StorageAdapter = createStorageAdapter(
    { baseUrl: storage.url, apiKey: STORAGE_KEY, apiVersion: '4.0', publicBucket: 'documents', privateBucket: 'files' },
    createGuardedFetch({ allowPrivate: true, userAgent: 'css-test' }),
  );

  const sign = async (credential: Record<string, unknown>) => {
    const res = await vc.call('POST', '/v2/credentials/issue', { json: { credential, options: { proofFormat: 'EnvelopingProofJose' } } });
    if (res.status !== 201) throw new Error(`the VC service did not sign: ${res.status} ${res.text}`);
    return res.body.verifiableCredential as { id: string } & Record<string, unknown>;
  };

  return {
    app,
    vc,
    storage,
    issuer: did,
    credential: (extra = {}) => ({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential', 'DigitalProductPassport'],
      id: `urn:uuid:${crypto.randomUUID()}`,
      issuer: { type: ['CredentialIssuer'], id: did, name: 'Acme Widgets' },
      validFrom: '2026-03-04T22:30:00-05:00',
      credentialSubject: { id: 'https://id.example.com/01/09520123456788', name: 'Widget' },
      ...extra,
    }),
    publish: async (credential, { encrypt = false } = {}) => adapter.storeJson(await sign(credential), { encrypt }),
    publishTampered: async (credential, change) => {
      const enveloped = await sign(credential);
      const [header, , signature] = jwsOf(enveloped).split('.');
      const forged = Buffer.from(JSON.stringify({ ...credential, ...change })).toString('base64url');
      return adapter.storeJson({ ...enveloped, id: `data:application/vc+jwt,${header}.${forged}.${signature}` }, { encrypt: false });
    },
    store: (document) => adapter.storeJson(document, { encrypt: false }),
    publishTemplate: (html) => publishTemplate(app, storage.url, html),
    close: async () => {
      await storage.close();
      await vc.stop();
      await app.close();
    },
  };
};

/** The page's address for a published credential, with the given parameters. */
export const pageUrl = (world: CredentialWorld, params: Record<string, string | undefined>) => {
  const url = new URL('/verify', world.app.url);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
};
