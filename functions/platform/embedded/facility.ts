import '@hono/zod-openapi';
import * as z from 'zod';
import type { FacilityRow } from '../../../core/facilities/facility-repository.ts';
import { iso, timestamps } from './timestamps.ts';

/** A facility's own fields, as embedded in products (and extended by the facility response). */
export const EmbeddedFacilitySchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ example: 'Pilbara Concentrator' }),
    description: z.string().nullable(),
    location: z.record(z.string(), z.unknown()).nullable(),
    operatingOrganisationId: z.string().nullable(),
    primaryIdentifierId: z.string().nullable(),
    ...timestamps,
  })
  .openapi('EmbeddedFacility');

export const toEmbeddedFacility = (row: FacilityRow): z.infer<typeof EmbeddedFacilitySchema> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  location: (row.location as Record<string, unknown> | null) ?? null,
  operatingOrganisationId: row.operatingOrganisationId,
  primaryIdentifierId: row.primaryIdentifierId,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});
