import { z } from '@hono/zod-openapi';
import type { FacilityRow, findFacility } from '../../core/facilities/facility-repository.ts';
import {
  identifierRelations,
  iso,
  primaryIdentifierIdField,
  secondaryIdentifierIdsField,
  timestamps,
  toIdentifierRelations,
} from '../master-data/schemas.ts';
import { OrganisationSchema } from '../organisations/schemas.ts';
import { idText, jsonObject, nonBlankText } from '../platform/fields.ts';

export const FacilitySchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ example: 'Pilbara Concentrator' }),
    description: z.string().nullable(),
    location: z.record(z.string(), z.unknown()).nullable(),
    operatingOrganisationId: z.string().nullable(),
    primaryIdentifierId: z.string().nullable(),
    secondaryIdentifierIds: z.array(z.string()),
    ...timestamps,
  })
  .openapi('Facility');

/** The operating organisation as embedded in a facility (its own fields, without relations). */
const EmbeddedOrganisationSchema = OrganisationSchema.omit({ secondaryIdentifierIds: true }).openapi('EmbeddedOrganisation');

export const FacilityDetailSchema = FacilitySchema.extend({
  ...identifierRelations,
  operatingOrganisation: EmbeddedOrganisationSchema.nullable(),
}).openapi('FacilityDetail');

const operatingOrganisationId = () => idText().openapi({ description: "One of the tenant's organisations" });

/** Facility create: optional fields are omitted to skip them; explicit null is a 400. */
export const CreateFacilityItem = z
  .object({
    name: nonBlankText().openapi({ example: 'Pilbara Concentrator' }),
    description: nonBlankText('description').optional(),
    location: jsonObject().optional().openapi({ description: 'Any JSON object; not validated; never null' }),
    operatingOrganisationId: operatingOrganisationId().optional(),
    primaryIdentifierId: primaryIdentifierIdField().optional(),
    secondaryIdentifierIds: secondaryIdentifierIdsField().optional(),
  })
  .openapi('CreateFacility');

export const UpdateFacilityBody = z
  .object({
    name: nonBlankText(),
    description: nonBlankText('description').nullable().openapi({ description: 'null clears' }),
    location: jsonObject().openapi({ description: 'null is a 400' }),
    operatingOrganisationId: operatingOrganisationId().nullable().openapi({ description: 'null clears' }),
    primaryIdentifierId: primaryIdentifierIdField().nullable().openapi({ description: 'null clears' }),
    secondaryIdentifierIds: secondaryIdentifierIdsField(),
  })
  .partial()
  .openapi('UpdateFacility');

type ListRow = FacilityRow & { secondaryIdentifierIds: string[] };
type DetailRow = NonNullable<Awaited<ReturnType<typeof findFacility>>>;
type OrganisationRow = NonNullable<DetailRow['operatingOrganisation']>;

export const toEmbeddedOrganisation = (row: OrganisationRow): z.infer<typeof EmbeddedOrganisationSchema> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  location: (row.location as Record<string, unknown> | null) ?? null,
  primaryIdentifierId: row.primaryIdentifierId,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const toFacilityResponse = (row: ListRow): z.infer<typeof FacilitySchema> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  location: (row.location as Record<string, unknown> | null) ?? null,
  operatingOrganisationId: row.operatingOrganisationId,
  primaryIdentifierId: row.primaryIdentifierId,
  secondaryIdentifierIds: row.secondaryIdentifierIds,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const toFacilityDetailResponse = (row: DetailRow): z.infer<typeof FacilityDetailSchema> => {
  const relations = toIdentifierRelations(row);
  return {
    ...toFacilityResponse({ ...row, secondaryIdentifierIds: relations.secondaryIdentifiers.map((i) => i.id) }),
    ...relations,
    operatingOrganisation: row.operatingOrganisation ? toEmbeddedOrganisation(row.operatingOrganisation) : null,
  };
};
