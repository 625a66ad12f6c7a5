import * as z from 'zod';
import type { AdapterType, ServiceType } from '../../db/schema/index.ts';
import { badRequest } from '../errors.ts';
import { publicUrlProblem } from '../net/public-url.ts';
import { TEXT_LIMITS, tooLongMessage } from '../text-limits.ts';

/** Which adapter serves which service type (the spec's neutral names). */
export const ADAPTER_FOR: Record<ServiceType, AdapterType> = {
  VC: 'VC_ADAPTER',
  STORAGE: 'STORAGE_ADAPTER',
  IDR: 'IDR_ADAPTER',
};

const text = () =>
  z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
    .max(TEXT_LIMITS.url, tooLongMessage(TEXT_LIMITS.url))
    .refine((v) => v.trim() !== '', 'must not be blank');
const url = () => text();
const LINK_TYPES = ['untp:dpp', 'untp:dcc', 'untp:dte', 'untp:idr', 'untp:dfr', 'untp:dia', 'untp:cvc'] as const;

/** Per-adapter config (unknown keys are refused, so a typo does not silently vanish). */
export const ADAPTER_CONFIGS = {
  VC_ADAPTER: z.strictObject({ baseUrl: url(), apiKey: text(), apiVersion: text().default('1.0.0') }),
  STORAGE_ADAPTER: z.strictObject({
    baseUrl: url(),
    apiKey: text().optional(),
    apiVersion: z
      .string()
      .regex(/^(4\.0|3\.\d+\.\d+)$/, 'must be 4.0 or a 3.x.y version')
      .default('4.0'),
    publicBucket: text(),
    privateBucket: text(),
  }),
  IDR_ADAPTER: z.strictObject({
    baseUrl: url(),
    apiKey: text(),
    apiVersion: z.literal('4.0', { error: 'must be 4.0' }).default('4.0'),
    // Unset, a published credential's links take its type's own link type (credential-link-type.ts).
    defaultLinkType: z.enum(LINK_TYPES, { error: `must be one of ${LINK_TYPES.join(', ')}` }).optional(),
    defaultMimeType: text().default('text/html'),
    defaultLanguage: text().default('en'),
    defaultContext: text().optional(),
    defaultFwqs: z.boolean({ error: 'must be a boolean' }).default(false),
  }),
} satisfies Record<AdapterType, z.ZodType>;

export type AdapterConfig = Record<string, unknown>;

/**
 * Validates a config against its adapter's schema (400 naming `config.<field>`), and refuses URLs that
 * point to private or reserved destinations unless FETCH_ALLOW_PRIVATE_URLS allows them.
 */
export const validateConfig = (adapterType: AdapterType, config: unknown, allowPrivateUrls: boolean): AdapterConfig => {
  const parsed = ADAPTER_CONFIGS[adapterType].safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length ? `.${issue.path.join('.')}` : '';
    const message = issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : issue.message;
    throw badRequest(`config${path}: ${message}`);
  }
  const valid = parsed.data as AdapterConfig;
  for (const [key, value] of Object.entries(valid)) {
    if (!/url$/i.test(key) || typeof value !== 'string') continue;
    const problem = publicUrlProblem(value, allowPrivateUrls);
    if (problem) throw badRequest(`config.${key}: ${problem}`);
  }
  return valid;
};

export const assertAdapterMatches = (serviceType: ServiceType, adapterType: AdapterType): void => {
  if (ADAPTER_FOR[serviceType] !== adapterType) {
    throw badRequest(`adapterType: a ${serviceType} service uses ${ADAPTER_FOR[serviceType]}`);
  }
};
