import '@hono/zod-openapi';
import * as z from 'zod';
import type { findOrganisation, OrganisationRow } from '../../core/organisations/organisation-repository.ts';
import { identifierRelations, primaryIdentifierIdField, secondaryIdentifierIdsField, toIdentifierRelations } from '../platform/master-data-fields.ts';
import { EmbeddedOrganisationSchema, toEmbeddedOrganisation } from '../platform/embedded/organisation.ts';
import { jsonObject, nonBlankText } from '../platform/fields.ts';

export const OrganisationSchema = EmbeddedOrganisationSchema.extend({ secondaryIdentifierIds: z.array(z.string()) }).openapi('Organisation');

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
  ...toEmbeddedOrganisation(row),
  secondaryIdentifierIds: row.secondaryIdentifierIds,
});

export const toOrganisationDetailResponse = (row: DetailRow): z.infer<typeof OrganisationDetailSchema> => {
  const relations = toIdentifierRelations(row);
  return {
    ...toOrganisationResponse({ ...row, secondaryIdentifierIds: relations.secondaryIdentifiers.map((i) => i.id) }),
    ...relations,
  };
};
