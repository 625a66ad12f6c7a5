import { z } from '@hono/zod-openapi';
import type { findOrganisation, OrganisationRow } from '../../core/organisations/organisation-repository.ts';
import {
  identifierRelations,
  iso,
  primaryIdentifierIdField,
  secondaryIdentifierIdsField,
  timestamps,
  toIdentifierRelations,
} from '../master-data/schemas.ts';
import { jsonObject, nonBlankText } from '../platform/fields.ts';

export const OrganisationSchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ example: 'Acme Mining Pty Ltd' }),
    description: z.string().nullable(),
    location: z.record(z.string(), z.unknown()).nullable(),
    primaryIdentifierId: z.string().nullable(),
    secondaryIdentifierIds: z.array(z.string()),
    ...timestamps,
  })
  .openapi('Organisation');

export const OrganisationDetailSchema = OrganisationSchema.extend(identifierRelations).openapi('OrganisationDetail');

/**
 * Organisation create: optional fields may be omitted or sent as null (treated as omitted); the spec
 * makes explicit null a 400 only for other resources.
 */
export const CreateOrganisationItem = z
  .object({
    name: nonBlankText().openapi({ example: 'Acme Mining Pty Ltd' }),
    description: nonBlankText('description').nullish(),
    location: jsonObject().nullish().openapi({ description: 'Any JSON object; not validated' }),
    primaryIdentifierId: primaryIdentifierIdField().nullish(),
    secondaryIdentifierIds: secondaryIdentifierIdsField().nullish(),
  })
  .openapi('CreateOrganisation');

export const UpdateOrganisationBody = z
  .object({
    name: nonBlankText(),
    description: nonBlankText('description').nullable().openapi({ description: 'null clears' }),
    location: jsonObject(),
    primaryIdentifierId: primaryIdentifierIdField().nullable().openapi({ description: 'null clears' }),
    secondaryIdentifierIds: secondaryIdentifierIdsField().openapi({ description: 'Replaces the set; [] clears' }),
  })
  .partial()
  .openapi('UpdateOrganisation');

type ListRow = OrganisationRow & { secondaryIdentifierIds: string[] };
type DetailRow = NonNullable<Awaited<ReturnType<typeof findOrganisation>>>;

export const toOrganisationResponse = (row: ListRow): z.infer<typeof OrganisationSchema> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  location: (row.location as Record<string, unknown> | null) ?? null,
  primaryIdentifierId: row.primaryIdentifierId,
  secondaryIdentifierIds: row.secondaryIdentifierIds,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const toOrganisationDetailResponse = (row: DetailRow): z.infer<typeof OrganisationDetailSchema> => {
  const relations = toIdentifierRelations(row);
  return {
    ...toOrganisationResponse({ ...row, secondaryIdentifierIds: relations.secondaryIdentifiers.map((i) => i.id) }),
    ...relations,
  };
};
