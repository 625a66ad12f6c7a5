import { createDecipheriv } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { serviceInstances } from '../../db/schema/index.ts';
import { SYSTEM_SERVICE_IDS } from '../../core/settings/system-services.ts';
import { readSample } from '../../core/credentials/test-support/offline.ts';
import { API_KEY as STORAGE_API_KEY, startStorage, type StorageHarness } from '../../storage-service/test/storage-harness.ts';
import type { VcService } from '../../vc-service/test/vc-harness.ts';
import { useVcServiceAsSystemVc } from './did-fixtures.ts';
import { startTestApp, type AccountName, type TestApp } from './test-app.ts';

export const storageConfig = (url: string) => ({ baseUrl: url, apiKey: STORAGE_API_KEY, apiVersion: '4.0', publicBucket: 'documents', privateBucket: 'files' });

/** Points a storage service instance (by id) at a storage service (or any base URL). */
export const pointStorageInstance = async (t: TestApp, instanceId: string, url: string) => {
  await t.db
    .update(serviceInstances)
    .set({ configEncrypted: await t.services.secretBox.encryptJson(storageConfig(url)) })
    .where(eq(serviceInstances.id, instanceId));
};

export interface IssuanceRig {
  t: TestApp;
  vc: VcService;
  storage: StorageHarness;
  /** Tenant A's token and a MANAGED DID of tenant A on the system VC service. */
  token: string;
  did: string;
  /** A MANAGED DID for another account (created on demand). */
  didOf(account: AccountName): Promise<string>;
  close(): Promise<void>;
}

/**
 * The web app with the real VC service and the real storage service behind the system default VC and
 * storage instances (private URLs allowed: both listen on loopback), and a DID of tenant A to sign with.
 * `vcEnv` is the VC service's extra environment (a foreign issuer's `vcEnv`), `storageEnv` the storage service's.
 */
export const startIssuanceRig = async (
  env: Record<string, string> = {},
  vcEnv: Record<string, string> = {},
  storageEnv: Record<string, string> = {},
): Promise<IssuanceRig> => {
  const storage = await startStorage('local', storageEnv);
  const t = await startTestApp({ env: { FETCH_ALLOW_PRIVATE_URLS: 'true', ...env } });
  const vc = await useVcServiceAsSystemVc(t, vcEnv);
  await pointStorageInstance(t, SYSTEM_SERVICE_IDS.STORAGE, storage.url);
  const didOf = async (account: AccountName) => {
    const token = await t.token(account);
    const res = await t.call('POST', '/api/v1/dids', { token, body: { type: 'MANAGED', method: 'DID_WEB', alias: `${account}-${crypto.randomUUID().slice(0, 8)}` } });
    if (res.status !== 201) throw new Error(`DID create failed: ${res.status} ${res.text}`);
    return res.body.did as string;
  };
  const token = await t.token('tenantA');
  const did = await didOf('tenantA');
  return {
    t,
    vc,
    storage,
    token,
    did,
    didOf,
    close: async () => {
      await t.close();
      await vc.stop();
      await storage.close();
    },
  };
};

/**
 * The settings that make a worker process seed the system default VC and storage instances as this
 * rig points them (a worker's start-up writes them from its environment).
 */
export const systemServicesEnv = (rig: Pick<IssuanceRig, 'vc' | 'storage'>): Record<string, string> => ({
  SYSTEM_VC_BASE_URL: rig.vc.url,
  SYSTEM_VC_API_KEY: rig.vc.apiKey,
  SYSTEM_STORAGE_BASE_URL: rig.storage.url,
  SYSTEM_STORAGE_API_KEY: STORAGE_API_KEY,
  SYSTEM_STORAGE_PUBLIC_BUCKET: 'documents',
  SYSTEM_STORAGE_PRIVATE_BUCKET: 'files',
});

/** The published samples issuance is tested with, by type and version (the 0.7.0 ones from the pre-release set). */
export const SAMPLES = {
  '0.7.0': {
    DigitalProductPassport: '0.7.0-prerelease/dpp/DigitalProductPassport_instance.json',
    DigitalConformityCredential: '0.7.0-prerelease/dcc/ConformityCredential_instance.json',
    DigitalFacilityRecord: '0.7.0-prerelease/dfr/DigitalFacilityRecord_instance.json',
    DigitalIdentityAnchor: '0.7.0-prerelease/dia/DigitalIdentityAnchor_mine_instance.json',
    DigitalTraceabilityEvent: '0.7.0-prerelease/dte/DigitalTraceabilityEvent_instance.json',
  },
  '0.6.1': {
    DigitalProductPassport: '0.6.1/untp-dpp-instance-0.6.1.json',
    DigitalConformityCredential: '0.6.1/untp-dcc-instance-0.6.1.json',
  },
} as const;

const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * A published sample adjusted only for the issuer (our DID, the sample's issuer object kept
 * otherwise) and the dates (valid from now for a year).
 */
export const samplePayload = (file: string, issuerDid: string, now = new Date()): Record<string, unknown> => {
  const sample = readSample(file);
  const issuer = sample.issuer;
  return {
    ...sample,
    issuer: issuer && typeof issuer === 'object' ? { ...(issuer as Record<string, unknown>), id: issuerDid } : issuerDid,
    validFrom: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    validUntil: new Date(now.getTime() + YEAR_MS).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
};

/** The body of an issuance of a sample. */
export const issueBody = (type: string, version: string, payload: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  credentialType: type,
  version,
  credentialPayload: payload,
  ...extra,
});

/** The stored copy at `uri`: decrypted with `key` when it is an encrypted envelope (the storage service's AES-256-GCM). */
export const openStoredCopy = async (uri: string, key: string | null): Promise<Record<string, unknown>> => {
  const res = await fetch(uri);
  if (!res.ok) throw new Error(`stored copy: ${res.status}`);
  const body = (await res.json()) as Record<string, unknown>;
  if (key === null) return body;
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'hex'), Buffer.from(body.iv as string, 'base64'), { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(body.tag as string, 'base64'));
  const plain = Buffer.concat([decipher.update(Buffer.from(body.cipherText as string, 'base64')), decipher.final()]).toString('utf8');
  return JSON.parse(plain) as Record<string, unknown>;
};

/** The credential inside an enveloped VC-JOSE credential (`data:application/vc+jwt,<JWS>`). */
export const decodeEnveloped = (enveloped: Record<string, unknown>): Record<string, unknown> => {
  const id = enveloped.id as string;
  const jws = id.slice(id.indexOf(',') + 1);
  return JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
};
