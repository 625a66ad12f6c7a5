import type { AdapterType, ServiceType } from '../../db/schema/service-instances.ts';
import { readExactTrue, readHttpUrl, readText, type EnvSource } from './env-readers.ts';

/** Fixed ids of the system default service instances (the peer's ids, so seeds and clients line up). */
export const SYSTEM_SERVICE_IDS: Record<ServiceType, string> = {
  IDR: 'csslhpc0y58qa8bqq75t4vpa9',
  STORAGE: 'ctvr0veo08n4sbweelnoclrep',
  VC: 'cblr5402swrgad9ai1cxqe5c3',
};

export interface SystemServiceDefinition {
  id: string;
  serviceType: ServiceType;
  adapterType: AdapterType;
  name: string;
  description: string;
  config: Record<string, unknown>;
}

const words: Record<ServiceType, string> = { IDR: 'IDR', STORAGE: 'Storage', VC: 'VC' };

const common = (env: EnvSource, type: ServiceType, adapterType: AdapterType, defaultBaseUrl: string) => ({
  id: SYSTEM_SERVICE_IDS[type],
  serviceType: type,
  adapterType,
  name: readText(env, `SYSTEM_${type}_SERVICE_NAME`) ?? `System Default ${words[type]}`,
  description:
    readText(env, `SYSTEM_${type}_SERVICE_DESCRIPTION`) ?? `System-wide default ${words[type]} service instance`,
  baseUrl: readHttpUrl(env, `SYSTEM_${type}_BASE_URL`, defaultBaseUrl),
  apiKey: readText(env, `SYSTEM_${type}_API_KEY`) ?? 'test123',
});

/** The three system default instances, built from the SYSTEM_<TYPE>_* settings at every start. */
export const readSystemServices = (env: EnvSource): SystemServiceDefinition[] => {
  const vc = common(env, 'VC', 'VC_ADAPTER', 'http://localhost:3332');
  const storage = common(env, 'STORAGE', 'STORAGE_ADAPTER', 'http://localhost:3334');
  const idr = common(env, 'IDR', 'IDR_ADAPTER', 'http://localhost:3000');
  const split = ({ baseUrl, apiKey, ...rest }: ReturnType<typeof common>) => ({ rest, baseUrl, apiKey });
  return [
    {
      ...split(vc).rest,
      config: { baseUrl: vc.baseUrl, apiKey: vc.apiKey, apiVersion: readText(env, 'SYSTEM_VC_API_VERSION') ?? '1.0.0' },
    },
    {
      ...split(storage).rest,
      config: {
        baseUrl: storage.baseUrl,
        apiKey: storage.apiKey,
        apiVersion: readText(env, 'SYSTEM_STORAGE_API_VERSION') ?? '4.0',
        publicBucket: readText(env, 'SYSTEM_STORAGE_PUBLIC_BUCKET') ?? 'public-data',
        privateBucket: readText(env, 'SYSTEM_STORAGE_PRIVATE_BUCKET') ?? 'private-data',
      },
    },
    {
      ...split(idr).rest,
      config: {
        baseUrl: idr.baseUrl,
        apiKey: idr.apiKey,
        apiVersion: readText(env, 'SYSTEM_IDR_API_VERSION') ?? '4.0',
        defaultLinkType: readText(env, 'SYSTEM_IDR_DEFAULT_LINK_TYPE'),
        defaultMimeType: readText(env, 'SYSTEM_IDR_DEFAULT_MIME_TYPE') ?? 'text/html',
        defaultLanguage: readText(env, 'SYSTEM_IDR_DEFAULT_LANGUAGE') ?? 'en',
        defaultContext: readText(env, 'SYSTEM_IDR_DEFAULT_CONTEXT') ?? 'au',
        defaultFwqs: readExactTrue(env, 'SYSTEM_IDR_DEFAULT_FWQS'),
      },
    },
  ];
};
