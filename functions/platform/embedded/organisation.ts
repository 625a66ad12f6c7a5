import '@hono/zod-openapi';
import * as z from 'zod';
import type { OrganisationRow } from '../../../core/organisations/organisation-repository.ts';
import { iso, timestamps } from './timestamps.ts';

/** An organisation's own fields, as embedded in facilities and products (and extended by the organisation response). */
export const EmbeddedOrganisationSchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ example: 'Acme Mining Pty Ltd' }),
    description: z.string().nullable(),
    location: z.record(z.string(), z.unknown()).nullable(),
    primaryIdentifierId: z.string().nullable(),
    ...timestamps,
  })
  .openapi('EmbeddedOrganisation');

export const toEmbeddedOrganisation = (row: OrganisationRow): z.infer<typeof EmbeddedOrganisationSchema> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  location: (row.location as Record<string, unknown> | null) ?? null,
  primaryIdentifierId: row.primaryIdentifierId,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});
