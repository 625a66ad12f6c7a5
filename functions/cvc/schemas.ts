import '@hono/zod-openapi';
import * as z from 'zod';
import { badRequest } from '../../core/errors.ts';

export const ConformitySchemeEntry = z
  .object({
    id: z.string(),
    name: z.string(),
    specVersion: z.string().nullable(),
    owner: z.object({ canonicalId: z.string().optional(), name: z.string().optional() }).optional(),
  })
  .openapi('ConformitySchemeEntry');

export const ConformityProfileEntry = z
  .object({ id: z.string(), name: z.string(), version: z.string().nullable(), status: z.string().nullable(), validFrom: z.string().optional() })
  .openapi('ConformityProfileEntry');

export const ConformityCriterionEntry = z
  .object({
    id: z.string(),
    name: z.string(),
    version: z.string().nullable(),
    status: z.string().nullable(),
    topics: z.array(z.object({ canonicalId: z.string(), name: z.string().optional(), definition: z.string().optional() })),
    tags: z.array(z.string()),
  })
  .openapi('ConformityCriterionEntry');

/** The catalogue's required canonical URI parameters (schemeId, profileId): missing or blank is a 400 naming it. */
export const requiredUri = (value: string | undefined, name: string) => {
  if (value === undefined || value.trim() === '') throw badRequest(`${name}: is required (a canonical URI)`);
  return value;
};
