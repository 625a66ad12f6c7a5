import '@hono/zod-openapi';
import * as z from 'zod';
import type { FacilityRow, findFacility } from '../../core/facilities/facility-repository.ts';
import { identifierRelations, primaryIdentifierIdField, secondaryIdentifierIdsField, toIdentifierRelations } from '../platform/master-data-fields.ts';
import { EmbeddedFacilitySchema, toEmbeddedFacility } from '../platform/embedded/facility.ts';
import { EmbeddedOrganisationSchema, toEmbeddedOrganisation } from '../platform/embedded/organisation.ts';
import { idText, jsonObject, nonBlankText } from '../platform/fields.ts';

export const FacilitySchema = EmbeddedFacilitySchema.extend({ secondaryIdentifierIds: z.array(z.string()) }).openapi('Facility');

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

export const toFacilityResponse = (row: ListRow): z.infer<typeof FacilitySchema> => ({
  ...toEmbeddedFacility(row),
  secondaryIdentifierIds: row.secondaryIdentifierIds,
});

export const toFacilityDetailResponse = (row: DetailRow): z.infer<typeof FacilityDetailSchema> => {
  const relations = toIdentifierRelations(row);
  return {
    ...toFacilityResponse({ ...row, secondaryIdentifierIds: relations.secondaryIdentifiers.map((i) => i.id) }),
    ...relations,
    operatingOrganisation: row.operatingOrganisation ? toEmbeddedOrganisation(row.operatingOrganisation) : null,
  };
};
