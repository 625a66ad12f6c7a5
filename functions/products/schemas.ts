import '@hono/zod-openapi';
import * as z from 'zod';
import type { findProduct, ProductRow } from '../../core/products/product-repository.ts';
import { PRODUCT_LEVELS } from '../../db/schema/index.ts';
import { identifierRelations, primaryIdentifierIdField, secondaryIdentifierIdsField, toIdentifierRelations } from '../platform/master-data-fields.ts';
import { EmbeddedFacilitySchema, toEmbeddedFacility } from '../platform/embedded/facility.ts';
import { EmbeddedOrganisationSchema, toEmbeddedOrganisation } from '../platform/embedded/organisation.ts';
import { iso, timestamps } from '../platform/embedded/timestamps.ts';
import { idText, nonBlankText, text } from '../platform/fields.ts';

export const ProductSchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ example: 'Lithium spodumene concentrate SC6' }),
    description: z.string().nullable(),
    level: z.enum(PRODUCT_LEVELS),
    parentId: z.string().nullable(),
    producedByOrganisationId: z.string().nullable(),
    manufacturingFacilityId: z.string().nullable(),
    primaryIdentifierId: z.string().nullable(),
    secondaryIdentifierIds: z.array(z.string()),
    ...timestamps,
  })
  .openapi('Product');

const EmbeddedProductSchema = ProductSchema.omit({ secondaryIdentifierIds: true }).openapi('EmbeddedProduct');

export const ProductDetailSchema = ProductSchema.extend({
  ...identifierRelations,
  producedByOrganisation: EmbeddedOrganisationSchema.nullable(),
  manufacturingFacility: EmbeddedFacilitySchema.nullable(),
  parent: EmbeddedProductSchema.nullable(),
}).openapi('ProductDetail');

const level = () =>
  z
    .enum(PRODUCT_LEVELS, {
      error: (i) => (i.input === undefined ? 'is required' : i.input === null ? 'must not be null' : `must be one of ${PRODUCT_LEVELS.join(', ')}`),
    })
    .openapi({ description: 'MODEL (no parent), BATCH (MODEL parent), ITEM (BATCH parent or none); immutable' });
const parentId = () => idText().openapi({ description: "One of the tenant's products, per the hierarchy rules" });
const organisationId = () => idText().openapi({ description: "One of the tenant's organisations" });
const facilityId = () => idText().openapi({ description: "One of the tenant's facilities" });

/** Product create: name and level required; optional fields are omitted to skip them (null is a 400). */
export const CreateProductItem = z
  .object({
    name: nonBlankText().openapi({ example: 'Lithium spodumene concentrate SC6' }),
    level: level(),
    description: text('description').optional(),
    parentId: parentId().optional(),
    producedByOrganisationId: organisationId().optional(),
    manufacturingFacilityId: facilityId().optional(),
    primaryIdentifierId: primaryIdentifierIdField().optional(),
    secondaryIdentifierIds: secondaryIdentifierIdsField().optional(),
  })
  .openapi('CreateProduct');

/** `level` is not listed: it is immutable and silently stripped when sent. */
export const UpdateProductBody = z
  .object({
    name: nonBlankText(),
    description: text('description'),
    parentId: parentId().nullable().openapi({ description: 'null clears (where the hierarchy allows)' }),
    producedByOrganisationId: organisationId().nullable().openapi({ description: 'null clears' }),
    manufacturingFacilityId: facilityId().nullable().openapi({ description: 'null clears' }),
    primaryIdentifierId: primaryIdentifierIdField().nullable().openapi({ description: 'null clears' }),
    secondaryIdentifierIds: secondaryIdentifierIdsField(),
  })
  .partial()
  .openapi('UpdateProduct');

type ListRow = ProductRow & { secondaryIdentifierIds: string[] };
type DetailRow = NonNullable<Awaited<ReturnType<typeof findProduct>>>;

const toEmbeddedProduct = (row: ProductRow): z.infer<typeof EmbeddedProductSchema> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  level: row.level,
  parentId: row.parentId,
  producedByOrganisationId: row.producedByOrganisationId,
  manufacturingFacilityId: row.manufacturingFacilityId,
  primaryIdentifierId: row.primaryIdentifierId,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const toProductResponse = (row: ListRow): z.infer<typeof ProductSchema> => ({
  ...toEmbeddedProduct(row),
  secondaryIdentifierIds: row.secondaryIdentifierIds,
});

export const toProductDetailResponse = (row: DetailRow): z.infer<typeof ProductDetailSchema> => {
  const relations = toIdentifierRelations(row);
  return {
    ...toProductResponse({ ...row, secondaryIdentifierIds: relations.secondaryIdentifiers.map((i) => i.id) }),
    ...relations,
    producedByOrganisation: row.producedByOrganisation ? toEmbeddedOrganisation(row.producedByOrganisation) : null,
    manufacturingFacility: row.manufacturingFacility ? toEmbeddedFacility(row.manufacturingFacility) : null,
    parent: row.parent ? toEmbeddedProduct(row.parent) : null,
  };
};
