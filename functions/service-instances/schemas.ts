import '@hono/zod-openapi';
import * as z from 'zod';
import { maskConfig } from '../../core/service-instances/masking.ts';
import type { ServiceInstance } from '../../core/service-instances/service-instance-repository.ts';
import { ownershipFlag } from '../../core/tenancy/visibility.ts';
import { ADAPTER_TYPES, SERVICE_TYPES } from '../../db/schema/index.ts';
import { bool, jsonObject, nonBlankText } from '../platform/fields.ts';

const enumField = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (i) => (i.input === undefined ? 'is required' : i.input === null ? 'must not be null' : `must be one of ${values.join(', ')}`),
  });

export const ServiceInstanceSchema = z
  .object({
    id: z.string(),
    serviceType: z.enum(SERVICE_TYPES),
    adapterType: z.enum(ADAPTER_TYPES),
    name: z.string(),
    description: z.string().nullable(),
    config: z.record(z.string(), z.unknown()).openapi({ description: 'Adapter config; secrets (apiKey…) shown as ***' }),
    isPrimary: z.boolean(),
    isSystemDefault: z.boolean(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('ServiceInstance');

const configField = () =>
  jsonObject().openapi({
    description:
      'VC_ADAPTER: baseUrl, apiKey, apiVersion (1.0.0). STORAGE_ADAPTER: baseUrl, apiKey?, apiVersion (4.0 or 3.x.y), ' +
      'publicBucket, privateBucket. IDR_ADAPTER: baseUrl, apiKey, apiVersion (4.0), defaultLinkType, defaultMimeType, ' +
      'defaultLanguage, defaultContext?, defaultFwqs. URLs must be public unless FETCH_ALLOW_PRIVATE_URLS is true.',
  });

export const CreateServiceInstanceBody = z
  .object({
    serviceType: enumField(SERVICE_TYPES),
    adapterType: enumField(ADAPTER_TYPES),
    name: nonBlankText(),
    description: nonBlankText('description').optional().openapi({ description: 'Omit rather than send null' }),
    config: configField(),
    isPrimary: bool().optional().openapi({ description: 'true demotes the previous primary of this type' }),
  })
  .openapi('CreateServiceInstance');

export const UpdateServiceInstanceBody = z
  .object({
    name: nonBlankText(),
    description: nonBlankText('description').nullable().openapi({ description: 'null clears' }),
    config: configField().openapi({ description: 'Shallow-merged over the stored config, then validated; *** keeps a secret' }),
    isPrimary: bool(),
  })
  .partial()
  .openapi('UpdateServiceInstance');

export const ServiceIdParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'ctvr0veo08n4sbweelnoclrep' }),
});

export const toServiceInstanceResponse = (row: ServiceInstance, showSystemBaseUrl = false): z.infer<typeof ServiceInstanceSchema> => ({
  id: row.id,
  serviceType: row.serviceType,
  adapterType: row.adapterType,
  name: row.name,
  description: row.description,
  config: maskConfig(row.config, { hideBaseUrl: ownershipFlag(row).isSystemDefault && !showSystemBaseUrl }),
  isPrimary: row.isPrimary,
  ...ownershipFlag(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
